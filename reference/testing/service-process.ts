import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const tsxBinary = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

function groupExists(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until no process of the group is left, not even an unreaped one: the data-directory lock counts a
 * killed process as alive until its parent (init, once tsx is gone) has reaped it.
 */
async function groupGone(groupId: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (groupExists(groupId)) {
    if (Date.now() > deadline)
      throw new Error(`process group ${groupId} is still there after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The service as a process group of its own, with what it printed so far: `tsx reference/main.ts`, or with
 * `viaNpm` the real `npm start` (npm, then the shell of its script, then node).
 */
export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves once the output matches, or rejects when the process ends or `timeoutMs` passes first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends a signal to the whole group (tsx runs the service in a child process) and waits for the end. */
  stop(signal: NodeJS.Signals): Promise<void>;
  /** Resolves once no process of the group is left; rejects after `timeoutMs`. */
  groupGone(timeoutMs?: number): Promise<void>;
}

export function startServiceProcess(
  environment: Record<string, string>,
  options: { viaNpm?: boolean } = {},
): ServiceProcess {
  const [command, args] = options.viaNpm ? ['npm', ['start']] : [tsxBinary, ['reference/main.ts']];
  const child = spawn(command, args, {
    cwd: repositoryRoot,
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    changed();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    changed();
  });
  let hasEnded = false;
  const ended = new Promise<void>((resolve) =>
    child.once('close', () => {
      hasEnded = true;
      changed();
      resolve();
    }),
  );

  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`timed out waiting for ${pattern}:\n${output}`)),
          timeoutMs,
        );
        const check = () => {
          const match = pattern.exec(output);
          if (match !== null) finish(match);
          else if (hasEnded) finish(new Error(`the service ended before printing ${pattern}:\n${output}`));
        };
        const finish = (result: RegExpExecArray | Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (result instanceof Error) reject(result);
          else resolve(result);
        };
        listeners.add(check);
        check();
      });
    },
    async stop(signal) {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // The group is already gone.
        }
      }
      await ended;
      if (child.pid !== undefined) await groupGone(child.pid);
    },
    groupGone: async (timeoutMs) => {
      if (child.pid !== undefined) await groupGone(child.pid, timeoutMs);
    },
  };
}

import { spawn } from 'node:child_process';
import path from 'node:path';

export interface Finished {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without the outer vitest's markers, so a child behaves as it does from a terminal. */
export function cleanEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([name]) => !/^(VITEST|TEST$|NODE_ENV$|TELEMETRY_|CONFORMANCE_)/.test(name),
  );
  return { ...Object.fromEntries(kept), ...extra };
}

/**
 * Runs a TypeScript entry point of the repository with tsx in its own process group, killed with the group when it
 * outlives `timeoutMilliseconds` (vitest's workers included).
 */
export async function runTsx(
  root: string,
  args: readonly string[],
  options: { environment?: NodeJS.ProcessEnv; timeoutMilliseconds: number },
): Promise<Finished> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), args, {
    cwd: root,
    env: options.environment ?? cleanEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group has ended already.
    }
  };
  // A test worker that ends early must not leave the child running.
  process.once('exit', killGroup);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup();
      reject(
        new Error(
          `tsx ${args.join(' ')} did not end within ${options.timeoutMilliseconds} ms:\n${stdout}${stderr}`,
        ),
      );
    }, options.timeoutMilliseconds);
    child.on('error', (error) => {
      clearTimeout(timer);
      process.off('exit', killGroup);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      process.off('exit', killGroup);
      resolve({ exitCode, stdout, stderr });
    });
  });
}

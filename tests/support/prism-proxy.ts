// Prism's validation proxy (`prism proxy`) on a free port of 127.0.0.1: it forwards each request to the upstream and
// reports what breaks the spec in an `sl-violations` response header (a JSON array), without changing the answer.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';

export interface Violation {
  location: string[];
  severity: 'Error' | 'Warning' | 'Information' | 'Hint';
  code?: string;
  message: string;
}

export interface RunningPrismProxy {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

/** The violations Prism attached to a response (none when the header is absent). */
export function violationsOf(headers: Headers | Record<string, string | string[]>): Violation[] {
  const value = headers instanceof Headers ? headers.get('sl-violations') : headers['sl-violations'];
  const text = Array.isArray(value) ? value.join('') : value;
  return text ? (JSON.parse(text) as Violation[]) : [];
}

export async function startPrismProxy(
  root: string,
  specFile: string,
  upstream: string,
  timeoutMilliseconds = 120_000,
): Promise<RunningPrismProxy> {
  const port = await freePort();
  // Its own process group, so stop() takes Prism's children down with it.
  const child: ChildProcess = spawn(
    path.join(root, 'node_modules/.bin/prism'),
    ['proxy', specFile, upstream, '-h', '127.0.0.1', '-p', String(port)],
    { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const listening = new Promise<void>((resolve) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
  });
  const killGroup = () => {
    if (child.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  };
  process.once('exit', killGroup);
  const stop = async () => {
    process.off('exit', killGroup);
    if (child.pid === undefined || !groupAlive(child.pid)) return;
    process.kill(-child.pid, 'SIGTERM');
    for (let attempt = 0; attempt < 50 && groupAlive(child.pid); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    if (groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  };
  const exited = once(child, 'exit').then(() => {
    throw new Error(`prism proxy exited:\n${output}`);
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`prism proxy did not listen within ${timeoutMilliseconds} ms:\n${output}`)),
      timeoutMilliseconds,
    );
  });
  try {
    await Promise.race([listening, exited, timedOut]);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  exited.catch(() => {});
  return { url: `http://127.0.0.1:${port}`, stop };
}

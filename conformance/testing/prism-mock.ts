import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { cleanEnvironment } from './run-tsx.js';

export interface RunningMock {
  /** The mock serves every path of the spec at its root: it stands for `{base_url}` and `{auth_url}` alike. */
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

/** Starts `npm run mock` (scripts/mock.ts, Prism) on a free port of 127.0.0.1 and waits until it answers. */
export async function startPrismMock(root: string, timeoutMilliseconds = 90_000): Promise<RunningMock> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Its own process group, so stop() takes down tsx, the script and Prism together.
  const child: ChildProcess = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    ['scripts/mock.ts', '--port', String(port)],
    { cwd: root, env: cleanEnvironment(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const killGroup = () => {
    if (child.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  };
  // A test worker that ends without stop() must not leave Prism listening.
  process.once('exit', killGroup);
  const stop = async () => {
    process.off('exit', killGroup);
    if (child.pid === undefined || !groupAlive(child.pid)) return;
    process.kill(-child.pid, 'SIGTERM');
    for (let attempt = 0; attempt < 50 && groupAlive(child.pid); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    if (groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  };
  const deadline = Date.now() + timeoutMilliseconds;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the mock exited with ${child.exitCode}:\n${output}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return { url, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  await stop();
  throw new Error(`the mock did not answer within ${timeoutMilliseconds} ms:\n${output}`);
}

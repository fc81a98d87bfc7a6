import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from '../../testing/free-port.js';

/** A throwaway Redis on 127.0.0.1, or why none could be started (the tests skip with that notice). */
export type RedisServer =
  | { url: string; port: number; pid: number; stop(): Promise<void> }
  | { unavailable: string };

/** Debian's `redis-server` on PATH or in /usr/bin and /usr/sbin. */
export function findRedisServer(): string | undefined {
  const directories = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/sbin'];
  return directories.map((directory) => join(directory, 'redis-server')).find((file) => existsSync(file));
}

/** Resolves once the port accepts a TCP connection, or rejects after `timeoutMilliseconds`. */
async function accepting(port: number, timeoutMilliseconds: number): Promise<void> {
  const deadline = Date.now() + timeoutMilliseconds;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts `redis-server` on a free loopback port in a temporary directory, without persistence (these tests check the
 * service's behaviour across nodes, not Redis's durability). `stop` ends it by its pid and removes the directory.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = findRedisServer();
  if (binary === undefined)
    return { unavailable: 'no redis-server on PATH (scripts/setup-redis.sh installs it)' };
  const directory = mkdtempSync(join(tmpdir(), 'cluster-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    directory,
    '--save',
    '',
    '--appendonly',
    'no',
  ];
  const child = spawn(binary, args, { stdio: 'ignore' });
  const pid = child.pid;
  try {
    if (pid === undefined) throw new Error('redis-server did not start');
    await accepting(port, 10_000);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
    return { unavailable: `redis-server did not start: ${(error as Error).message}` };
  }
  // Should the test process end without its afterAll, the server still stops with it.
  const stopOnExit = () => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  };
  process.once('exit', stopOnExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid,
    async stop() {
      process.off('exit', stopOnExit);
      if (child.exitCode === null) process.kill(pid, 'SIGTERM');
      await stopped(child);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

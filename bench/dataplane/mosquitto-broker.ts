// Debian's Mosquitto on a free loopback port, configured by a file the benchmark writes to a temporary directory.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function mosquittoBinary(): string | null {
  for (const candidate of ['/usr/sbin/mosquitto', '/usr/bin/mosquitto', '/usr/local/sbin/mosquitto'])
    if (existsSync(candidate)) return candidate;
  return null;
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface Mosquitto {
  url: string;
  pid: number;
  /** CPU time (user + system) of the broker so far, in microseconds (from /proc). */
  cpuMicroseconds(): Promise<number>;
  stop(): Promise<void>;
}

export async function startMosquitto(binary: string, port: number): Promise<Mosquitto> {
  const directory = await mkdtemp(path.join(tmpdir(), 'bench-mosquitto-'));
  const config = path.join(directory, 'mosquitto.conf');
  await writeFile(
    config,
    `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_type error\n`,
  );
  const child: ChildProcess = spawn(binary, ['-c', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let attempt = 0; attempt < 100 && !(await accepting(port)); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const pid = child.pid ?? 0;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    pid,
    async cpuMicroseconds() {
      // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 per second on Linux).
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) * 10_000;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(directory, { recursive: true, force: true });
    },
  };
}

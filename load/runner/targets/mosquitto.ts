import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RunningMosquitto {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function accepting(port: number, deadline: number): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`mosquitto did not listen on 127.0.0.1:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Debian installs the broker in /usr/sbin, which is not on every user's PATH.
const debianBinary = '/usr/sbin/mosquitto';

export function mosquittoBinary(): string | null {
  const onPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((directory) => path.join(directory, 'mosquitto'));
  return [...onPath, debianBinary].find((candidate) => existsSync(candidate)) ?? null;
}

/** Debian's mosquitto on a free loopback port with a config of our own: anonymous, no persistence, no-delay. */
export async function startMosquitto(binary = mosquittoBinary() ?? 'mosquitto'): Promise<RunningMosquitto> {
  const directory = await mkdtemp(path.join(tmpdir(), 'load-mosquitto-'));
  const port = await freePort();
  const config = path.join(directory, 'mosquitto.conf');
  await writeFile(
    config,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'set_tcp_nodelay true',
      'log_dest none',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(binary, ['-c', config], { stdio: 'ignore' });
  const failed = new Promise<never>((_resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`cannot start ${binary} (${error.message}); install Debian's mosquitto package`)),
    );
    child.once('exit', (code) => reject(new Error(`${binary} exited with code ${code}`)));
  });
  await Promise.race([accepting(port, Date.now() + 5000), failed]);
  failed.catch(() => {});
  return {
    url: `mqtt://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

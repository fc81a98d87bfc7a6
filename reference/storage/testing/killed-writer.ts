import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const tsxBinary = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const writerScript = fileURLToPath(new URL('./insert-until-killed.ts', import.meta.url));

export interface KilledWriter {
  accountId: string;
  /** Every event id the writer printed, that is, every insert that had resolved. */
  acknowledged: string[];
  signal: NodeJS.Signals | null;
}

/**
 * Runs insert-until-killed.ts on `dataDir` and SIGKILLs it once `killAfter` inserts were acknowledged, while it is
 * still inserting. tsx runs the script in a child process of its own, so the writer gets a process group and the
 * signal goes to the whole group.
 */
export function runKilledWriter(dataDir: string, killAfter: number, total: number): Promise<KilledWriter> {
  const writer = spawn(tsxBinary, [writerScript, dataDir, String(total)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const lines: string[] = [];
  let pending = '';
  let killed = false;
  writer.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
    const acknowledged = lines.filter((line) => line.startsWith('event ')).length;
    if (acknowledged >= killAfter && writer.pid !== undefined && !killed) {
      killed = true;
      process.kill(-writer.pid, 'SIGKILL');
    }
  });
  // `close` waits for the pipe to close, that is, for the script's own process too, not only for tsx.
  return new Promise((resolve, reject) => {
    writer.on('error', reject);
    writer.on('close', (_code, signal) => {
      const accountId = lines.find((line) => line.startsWith('account '))?.slice('account '.length);
      if (accountId === undefined) return reject(new Error('the writer printed no account before it ended'));
      const acknowledged = lines.filter((line) => line.startsWith('event ')).map((line) => line.slice(6));
      resolve({ accountId, acknowledged, signal });
    });
  });
}

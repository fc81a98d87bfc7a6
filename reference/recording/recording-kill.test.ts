import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { openStore } from '../storage/open-store.js';

const scratchRoot = fileURLToPath(new URL('../../.tmp/', import.meta.url));
const tsxBinary = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const writerScript = fileURLToPath(new URL('./testing/record-until-killed.ts', import.meta.url));

/** Runs the recorder in a process group of its own and SIGKILLs it once `killAfter` samples were acknowledged. */
function recordUntilKilled(dataDir: string, killAfter: number) {
  const writer = spawn(tsxBinary, [writerScript, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let output = '';
  let acknowledged = 0;
  writer.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    const counts = [...output.matchAll(/^ack (\d+)$/gm)].map((match) => Number(match[1]));
    acknowledged = Math.max(acknowledged, ...counts);
    if (acknowledged >= killAfter && writer.pid !== undefined && writer.exitCode === null) {
      try {
        process.kill(-writer.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
  return new Promise<{ accountId: string; reportId: string; acknowledged: number; signal: string | null }>(
    (resolve, reject) => {
      writer.on('error', reject);
      writer.on('close', (_code, signal) => {
        const ids = /^account (\S+) report (\S+)$/m.exec(output);
        if (ids === null) return reject(new Error(`the recorder printed no ids:\n${output}`));
        resolve({ accountId: ids[1] ?? '', reportId: ids[2] ?? '', acknowledged, signal });
      });
    },
  );
}

it('keeps every acknowledged batch of a recording through kill -9', async () => {
  await mkdir(scratchRoot, { recursive: true });
  const directory = await mkdtemp(path.join(scratchRoot, 'recording-kill-'));
  const dataDir = path.join(directory, 'database');
  try {
    const run = await recordUntilKilled(dataDir, 3_000);
    expect(run.signal).toBe('SIGKILL');
    const store = await openStore({ kind: 'embedded', dataDir });
    const page = await store.records.list(run.accountId, { limit: 100 }, { reportId: run.reportId });
    const samples = (page?.items ?? []).reverse().flatMap((record) => record.samples) as Array<{
      ts: number;
    }>;
    await store.close();
    // Everything acknowledged is there, in order and without holes; at most the batches not yet acknowledged are not.
    expect(samples.length).toBeGreaterThanOrEqual(run.acknowledged);
    expect(samples.map((sample) => sample.ts)).toEqual(samples.map((_sample, index) => index));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}, 120_000);

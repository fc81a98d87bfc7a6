import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './config-error.js';

/**
 * The embedded database serves one process at a time: a running service records its pid in the data directory, and
 * the keys command refuses to open the database while that process lives.
 */
const lockFile = (dataDir: string) => path.join(dataDir, 'service.pid');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function assertNotRunning(dataDir: string): Promise<void> {
  const pid = Number(await readFile(lockFile(dataDir), 'utf8').catch(() => ''));
  if (pid > 0 && pid !== process.pid && isAlive(pid)) {
    throw new ConfigError(
      `the service (pid ${pid}) is using ${dataDir}; stop it first, or use PostgreSQL (TELEMETRY_POSTGRES_URL)`,
    );
  }
}

export async function takeLock(dataDir: string): Promise<() => Promise<void>> {
  await assertNotRunning(dataDir);
  await writeFile(lockFile(dataDir), String(process.pid));
  return () => rm(lockFile(dataDir), { force: true });
}

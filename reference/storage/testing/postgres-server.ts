import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { commandLine, findPostgresBinaries } from './postgres-binaries.js';

const execFileAsync = promisify(execFile);

/** A throwaway PostgreSQL cluster on 127.0.0.1, or why none could be started. */
export type PostgresServer = { connectionString: string; stop(): Promise<void> } | { unavailable: string };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('the port probe has no TCP address');
  return address.port;
}

/** Creates a cluster in a temporary directory and starts it on a free port; `stop` removes it again. */
export async function startPostgresServer(): Promise<PostgresServer> {
  const binaries = findPostgresBinaries();
  if ('unavailable' in binaries) return binaries;
  const directory = mkdtempSync(join(tmpdir(), 'storage-postgres-'));
  if (binaries.owner) chownSync(directory, binaries.owner.uid, binaries.owner.gid);
  const dataDir = join(directory, 'data');
  const run = (program: string, ...args: string[]) => execFileAsync(...commandLine(binaries, program, args));
  const port = await freePort();
  try {
    await run('initdb', '-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8');
    // fsync off: these tests check the store's behaviour, not PostgreSQL's own durability; it saves seconds.
    const options = `-h 127.0.0.1 -p ${port} -k ${directory} -c fsync=off`;
    await run('pg_ctl', '-D', dataDir, '-l', join(directory, 'server.log'), '-w', '-o', options, 'start');
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    return {
      unavailable: `PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const stopArgs = ['-D', dataDir, '-m', 'immediate', '-w', 'stop'];
  // Should the test process end without running its afterAll, the server still stops with it.
  process.once('exit', () => {
    if (!existsSync(dataDir)) return;
    execFileSync(...commandLine(binaries, 'pg_ctl', stopArgs));
    rmSync(directory, { recursive: true, force: true });
  });
  return {
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await run('pg_ctl', ...stopArgs);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

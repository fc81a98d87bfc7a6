// npx tsx bench/measure/statements-per-request.ts — how many SQL statements the reference on PostgreSQL sends for one
// POST /streams and one GET /reports with a key it has seen before (ADR 0022): `pg.Client.prototype.query` counted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { start } from '../../reference/index.js';
import { startPostgresServer } from '../../reference/storage/testing/postgres-server.js';

const server = await startPostgresServer();
if ('unavailable' in server) throw new Error(server.unavailable);
const dataDir = await mkdtemp(path.join(tmpdir(), 'statements-'));
const service = await start({ dataDir, postgresUrl: server.connectionString });
const statements: string[] = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [first] = args;
  statements.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;
const key = service.seeded?.accounts.paid.keys.secret.key ?? '';
const call = (method: string, url: string, body?: unknown) =>
  fetch(`${service.urls.baseUrl}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const measure = async (label: string, send: () => Promise<Response>) => {
  await send(); // the key's first use fills the cache
  statements.length = 0;
  const response = await send();
  await response.text();
  console.log(`${label}: ${response.status}, ${statements.length} statements`);
  for (const text of statements) console.log(`  ${text.replace(/\s+/g, ' ').slice(0, 110)}`);
};
try {
  await measure('POST /streams', () =>
    call('POST', '/streams', {
      title: 'Pump 7 vibration',
      quality: 'high',
      format: 'json',
      metadata: { site: 'plant-3' },
    }),
  );
  await measure('GET /reports?limit=100', () => call('GET', '/reports?limit=100'));
} finally {
  pg.Client.prototype.query = query;
  await service.stop();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}

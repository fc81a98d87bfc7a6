// node --expose-gc --import tsx bench/measure/key-cache-memory.ts [count] [--embedded] [--cache-module <file>]
// Heap growth of the key and account caches after `count` (default 200,000) lookups of distinct unknown API keys,
// the way a flood of random `Authorization: Bearer sk_…` headers reaches them (issue 12, item 2). By default the
// cache wraps a table that knows no key (the cache alone is measured, in seconds); `--embedded` puts it over the
// real embedded database (about 3 ms a lookup on a loaded machine). `--cache-module` measures another version of
// cached-store.ts (say, the one before the fix, from `git show`).
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { digest } from '../../reference/auth/secrets.js';
import type { cachedStore as CachedStore } from '../../reference/storage/cached-store.js';
import { openExecutor } from '../../reference/storage/open-store.js';
import { createSqlStore } from '../../reference/storage/sql-store.js';
import type { Store } from '../../reference/storage/store.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { embedded: { type: 'boolean', default: false }, 'cache-module': { type: 'string' } },
});
const count = Number(positionals[0] ?? 200_000);
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('run with node --expose-gc');
const modulePath = path.resolve(values['cache-module'] ?? 'reference/storage/cached-store.ts');
const { cachedStore } = (await import(modulePath)) as { cachedStore: typeof CachedStore };

const megabytes = () => {
  collect();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed / 2 ** 20, rss: usage.rss / 2 ** 20 };
};

/** A key table that knows no key: what the cache sees under a flood of random keys. */
const emptyKeyTable = { apiKeys: { findByHash: async () => null } } as unknown as Store;

await mkdir('.tmp', { recursive: true });
const directory = await mkdtemp(path.join('.tmp', 'measure-cache-'));
const executor = values.embedded ? await openExecutor({ kind: 'embedded', dataDir: directory }) : null;
const store = cachedStore(executor === null ? emptyKeyTable : createSqlStore(executor));
try {
  await store.apiKeys.findByHash(digest('warm-up'));
  const before = megabytes();
  const started = performance.now();
  for (let index = 0; index < count; index += 1) {
    await store.apiKeys.findByHash(digest(`sk_live_${randomBytes(24).toString('base64url')}`));
  }
  const seconds = (performance.now() - started) / 1000;
  const after = megabytes();
  // Keeps the store (and its caches) alive past the measurement, or the collector would free them first.
  await store.apiKeys.findByHash(digest('warm-up'));
  console.log(
    `${count} distinct unknown keys (${path.relative(process.cwd(), modulePath)}, ${executor === null ? 'cache alone' : 'embedded database'}): ` +
      `heap +${(after.heap - before.heap).toFixed(1)} MB, rss +${(after.rss - before.rss).toFixed(1)} MB (${seconds.toFixed(1)} s)`,
  );
} finally {
  await executor?.close();
  await rm(directory, { recursive: true, force: true });
}

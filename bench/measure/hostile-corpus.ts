// npx tsx bench/measure/hostile-corpus.ts — starts the reference service on free ports in a scratch directory,
// sends the hostile corpus (reference/testing/hostile-requests.ts) over raw sockets, and counts answers that are
// 5xx, not the error envelope, or that name an empty `param` (issue 12, item 5).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { start } from '../../reference/index.js';
import { hostileRequests, judge, sendRaw } from '../../reference/testing/hostile-requests.js';

await mkdir('.tmp', { recursive: true });
const directory = await mkdtemp(path.join('.tmp', 'hostile-'));
const service = await start({ dataDir: directory, addressRequestsPerWindow: 1_000_000 });
try {
  const token = service.seeded?.accounts.paid?.keys.secret.key ?? '';
  const base = new URL(service.urls.baseUrl);
  const corpus = hostileRequests(base.pathname);
  const failures = new Map<string, string[]>();
  let serverErrors = 0;
  for (const hostile of corpus) {
    const { name, raw } = hostile;
    const reply = await sendRaw(
      Number(base.port),
      raw.replaceAll('{host}', base.host).replaceAll('{token}', token),
    );
    const verdict = judge(hostile, reply);
    if (reply.status >= 500) serverErrors += 1;
    if (verdict === null) continue;
    const kind = name.replace(/^\S+ /, '');
    failures.set(kind, [...(failures.get(kind) ?? []), verdict]);
  }
  const failed = [...failures.values()].reduce((sum, list) => sum + list.length, 0);
  console.log(
    `${corpus.length} requests: ${serverErrors} × 5xx, ${failed} not as required (${(((corpus.length - failed) / corpus.length) * 100).toFixed(1)}% envelope or success)`,
  );
  for (const [kind, verdicts] of failures)
    console.log(`  ${kind}: ${verdicts.length} (${[...new Set(verdicts)].join('; ')})`);
} finally {
  await service.stop();
  await rm(directory, { recursive: true, force: true });
}

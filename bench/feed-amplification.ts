// npx tsx bench/feed-amplification.ts [--service-module <path to reference/index.ts>] [--records 40] [--samples 5000]
// Issue 12, item 1: 20 clients read one report's public feed as fast as they can while another account makes
// ordinary requests; prints that account's latency (p50, p99) with the feed load and without it. Run it from
// another checkout's module (`--service-module`) to compare the service before a change, side by side.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { start as Start } from '../reference/index.js';
import { createApiKey } from '../reference/seed.js';

const { values } = parseArgs({
  options: {
    'service-module': { type: 'string', default: 'reference/index.ts' },
    records: { type: 'string', default: '40' },
    samples: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '15' },
  },
});
const feedClients = 20;
const { start } = (await import(path.resolve(values['service-module']))) as { start: typeof Start };

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

await mkdir('.tmp', { recursive: true });
const directory = await mkdtemp(path.join('.tmp', 'bench-feed-'));
const service = await start({ dataDir: directory });
try {
  const seeded = service.seeded?.accounts;
  const owner = seeded?.paid?.keys.secret.key ?? '';
  const bystanderAccount = seeded?.free?.accountId ?? '';
  const json = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const report = (await (
    await fetch(`${service.urls.baseUrl}/reports`, {
      method: 'POST',
      headers: json(owner),
      body: '{"title":"Big"}',
    })
  ).json()) as { id: string; reportUrl: string };
  const samples = Array.from({ length: Number(values.samples) }, (_, index) => ({
    ts: 1_795_253_472_250 + index,
    values: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8 },
  }));
  for (let index = 0; index < Number(values.records); index += 1) {
    const body = JSON.stringify({ title: `Run ${index}`, samples });
    const created = await fetch(`${service.urls.baseUrl}/reports/${report.id}/records`, {
      method: 'POST',
      headers: json(owner),
      body,
    });
    const { id } = (await created.json()) as { id: string };
    await fetch(`${service.urls.baseUrl}/reports/${report.id}/records/${id}/publish`, {
      method: 'POST',
      headers: json(owner),
    });
  }
  // Several keys of the bystander, so its own plan limit is never what slows it.
  const keys = await Promise.all(
    Array.from(
      { length: 8 },
      async () =>
        (
          await createApiKey(
            service.dependencies.store,
            service.dependencies.clock,
            bystanderAccount,
            'secret',
          )
        ).key,
    ),
  );
  const measure = async (withFeeds: boolean) => {
    const deadline = Date.now() + Number(values.seconds) * 1000;
    const statuses = new Map<number, number>();
    const feeds = withFeeds
      ? Array.from({ length: feedClients }, async () => {
          while (Date.now() < deadline) {
            const reply = await fetch(report.reportUrl);
            statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
            await reply.arrayBuffer();
          }
        })
      : [];
    const latencies: number[] = [];
    let index = 0;
    while (Date.now() < deadline) {
      const token = keys[index++ % keys.length] ?? '';
      const started = performance.now();
      await (await fetch(`${service.urls.baseUrl}/account`, { headers: json(token) })).arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await Promise.all(feeds);
    latencies.sort((a, b) => a - b);
    return {
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      count: latencies.length,
      statuses,
    };
  };
  for (const withFeeds of [false, true]) {
    const result = await measure(withFeeds);
    const feedStatuses = [...result.statuses].map(([status, count]) => `${status}×${count}`).join(' ');
    console.log(
      `${withFeeds ? `${feedClients} feed clients` : 'no feed load   '}: other account GET /account p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms over ${result.count} requests${withFeeds ? `; feed answers ${feedStatuses}` : ''}`,
    );
  }
} finally {
  await service.stop();
  await rm(directory, { recursive: true, force: true });
}

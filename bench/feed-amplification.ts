// npx tsx bench/feed-amplification.ts [--service-module <path to reference/index.ts>] [--records 40] [--samples 5000]
// Issue 12, item 1: 20 clients read one report's public feed as fast as they can while another account makes
// ordinary requests; prints that account's latency (p50, p99) with the feed load and without it. Run it from
// another checkout's module (`--service-module`) to compare the service before a change, side by side.
// The feed clients run in a worker thread, as other machines would: on the service's own event loop their fetch work
// (a third of the process's CPU in a profile) was counted as the service's. `--clients-in-process` puts them back
// there, to compare with figures measured that way.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { schemaMaxItems } from '../generated/types/facts.js';
import type { start as Start } from '../reference/index.js';
import { createApiKey } from '../reference/seed.js';

const { values } = parseArgs({
  options: {
    'service-module': { type: 'string', default: 'reference/index.ts' },
    records: { type: 'string', default: '40' },
    samples: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '15' },
    'clients-in-process': { type: 'boolean', default: false },
  },
});
const feedClients = 20;
const { start } = (await import(path.resolve(values['service-module']))) as { start: typeof Start };

/** 20 loops reading `url` until `deadline`, in plain JavaScript so the worker needs no loader; posts the statuses. */
const feedClientsSource = `
const { parentPort, workerData } = require('node:worker_threads');
const statuses = {};
const loop = async () => {
  while (Date.now() < workerData.deadline) {
    const reply = await fetch(workerData.url);
    statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
    await reply.arrayBuffer();
  }
};
Promise.all(Array.from({ length: workerData.clients }, loop)).then(() => parentPort.postMessage(statuses));
`;

async function feedClientsInWorker(url: string, deadline: number): Promise<Map<number, number>> {
  const worker = new Worker(feedClientsSource, {
    eval: true,
    workerData: { url, deadline, clients: feedClients },
  });
  const statuses = (await new Promise((resolve, reject) => {
    worker.once('message', resolve).once('error', reject);
  })) as Record<string, number>;
  await worker.terminate();
  return new Map(Object.entries(statuses).map(([status, count]) => [Number(status), count]));
}

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
  // An upload holds at most CreateRecordRequest's samples: larger records are created, then given all their samples
  // by an update (UpdateRecordRequest allows a whole record's). Every step must succeed, or the feed is not the one
  // the figures claim.
  const uploadLimit = schemaMaxItems['CreateRecordRequest.samples'];
  const send = async (method: string, url: string, body?: string) => {
    // A JSON content type with no body is refused (400 body_invalid_json): publish goes without one.
    const headers = body === undefined ? { authorization: `Bearer ${owner}` } : json(owner);
    const reply = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await reply.text();
    if (!reply.ok) throw new Error(`${method} ${url}: ${reply.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as { id: string };
  };
  const records = `${service.urls.baseUrl}/reports/${report.id}/records`;
  for (let index = 0; index < Number(values.records); index += 1) {
    const first = JSON.stringify({ title: `Run ${index}`, samples: samples.slice(0, uploadLimit) });
    const { id } = await send('POST', records, first);
    if (samples.length > uploadLimit) await send('PATCH', `${records}/${id}`, JSON.stringify({ samples }));
    await send('POST', `${records}/${id}/publish`);
  }
  const feedItems = ((await (await fetch(report.reportUrl)).text()).match(/<item>/g) ?? []).length;
  console.log(
    `report of ${values.records} published records × ${samples.length} samples; its feed lists ${feedItems}`,
  );
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
    let statuses = new Map<number, number>();
    const inWorker = withFeeds && !values['clients-in-process'];
    const worker = inWorker
      ? feedClientsInWorker(report.reportUrl, deadline).then((counted) => {
          statuses = counted;
        })
      : null;
    const feeds =
      withFeeds && !inWorker
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
    await Promise.all([...feeds, worker]);
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

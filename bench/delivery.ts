// npx tsx bench/delivery.ts — webhook deliveries per second from the reference (embedded store) to a local receiver
// answering 204, against a bare undici loop posting the same signed bodies; and p99 from event recorded to received.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { apiPolicies } from '../generated/types/facts.js';
import { fillOutbox } from '../reference/delivery/testing/outbox-filler.js';
import { recordEvent } from '../reference/services/events.js';
import { type RunningService, start } from '../reference/start.js';
import { type BenchReport, formatCheck, meetsTarget, type RatioCheck } from './harness.js';

const deliveriesPerRound = 5000;
const rounds = 3;
const connections = 16;
const pacedEvents = 1000;
const pacedPerSecond = 250;
const deliveryIdHeader = apiPolicies.webhookDelivery.idempotency.header.toLowerCase();

interface Captured {
  body: string;
  headers: Record<string, string>;
}

/** A node:http receiver answering 204; remembers when each delivery id arrived and the first requests whole. */
async function receiver() {
  const arrivals = new Map<string, number>();
  const captured: Captured[] = [];
  let waiter: { count: number; resolve: () => void } | null = null;
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      arrivals.set(String(incoming.headers[deliveryIdHeader]), performance.now());
      if (captured.length < deliveriesPerRound)
        captured.push({
          body: Buffer.concat(chunks).toString(),
          headers: incoming.headers as Record<string, string>,
        });
      response.writeHead(204).end();
      if (waiter !== null && arrivals.size >= waiter.count) waiter.resolve();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    captured,
    reset: () => arrivals.clear(),
    waitFor: (count: number) =>
      new Promise<void>((resolve) => {
        waiter = { count, resolve };
        if (arrivals.size >= count) resolve();
      }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
type Receiver = Awaited<ReturnType<typeof receiver>>;

/** The reference draining an outbox of `deliveriesPerRound` events recorded before it started. */
async function referenceRound(
  root: string,
  target: Receiver,
): Promise<{ perSecond: number; service: RunningService; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(root, 'bench-delivery-'));
  await fillOutbox(
    { kind: 'embedded', dataDir: path.join(dataDir, 'database') },
    1,
    [target.url],
    deliveriesPerRound,
  );
  target.reset();
  const service = await start({ dataDir, allowPrivateWebhookTargets: true, webhookLog: { info() {} } });
  await target.waitFor(deliveriesPerRound);
  const times = [...target.arrivals.values()].sort((a, b) => a - b);
  const seconds = ((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000;
  return { perSecond: (deliveriesPerRound - 1) / seconds, service, dataDir };
}

/** The same signed requests posted by a bare loop: one undici Agent, the same connections, no store. */
async function bareRound(target: Receiver): Promise<number> {
  const agent = new Agent({ connections, keepAliveTimeout: 10_000 });
  const requests = target.captured.slice(0, deliveriesPerRound);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests.length) {
      const signed = requests[next++] as Captured;
      const { 'content-length': _length, host: _host, connection: _connection, ...headers } = signed.headers;
      const response = await request(target.url, {
        method: 'POST',
        dispatcher: agent,
        headers,
        body: signed.body,
      });
      await response.body.dump();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return requests.length / seconds;
}

/** Events recorded at a steady rate on a running service: milliseconds from each commit to its arrival. */
async function pacedLatencies(service: RunningService, target: Receiver): Promise<number[]> {
  const { store, clock } = service.dependencies;
  const [webhook] =
    (await store.webhooks.list((await store.accounts.list()).at(-1)?.id ?? '', { limit: 1 }))?.items ?? [];
  if (webhook === undefined) throw new Error('the outbox filler created no webhook');
  target.reset();
  const recordedAt = new Map<string, number>();
  const gapMs = 1000 / pacedPerSecond;
  const started = performance.now();
  for (let index = 0; index < pacedEvents; index += 1) {
    const wait = started + index * gapMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const event = await recordEvent(
      store,
      clock,
      webhook.accountId,
      'webhook.test',
      {
        object: {
          id: webhook.id,
          object: 'webhook',
          url: webhook.url,
          events: ['webhook.test'],
          status: 'active',
          description: null,
          createdAt: webhook.createdAt,
        },
      },
      { onlyWebhookId: webhook.id },
    );
    recordedAt.set(event.id, performance.now());
  }
  await target.waitFor(pacedEvents);
  const page = await store.deliveries.list(
    webhook.accountId,
    { limit: pacedEvents },
    { webhookId: webhook.id },
  );
  return (page?.items ?? []).flatMap((delivery) => {
    const arrived = target.arrivals.get(delivery.id);
    const recorded = recordedAt.get(delivery.eventId);
    return arrived === undefined || recorded === undefined ? [] : [arrived - recorded];
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/** The ratio the issue promises (#10): the reference at least half as fast as the bare loop, per round. */
function ratioCheck(reference: number[], bare: number[]): RatioCheck {
  const ratios = reference.map((value, index) => value / (bare[index] ?? Number.NaN));
  return {
    label: 'webhook delivery, 204 receiver',
    candidate: 'reference (embedded store)',
    baseline: 'bare undici loop',
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    target: 0.5,
    direction: 'at-least',
  };
}

export async function run(): Promise<BenchReport> {
  const root = path.join(import.meta.dirname, '..', '.tmp');
  await mkdir(root, { recursive: true });
  const target = await receiver();
  const reference: number[] = [];
  const bare: number[] = [];
  let latencies: number[] = [];
  try {
    for (let round = 0; round < rounds; round += 1) {
      const { perSecond, service, dataDir } = await referenceRound(root, target);
      reference.push(perSecond);
      if (round === rounds - 1) latencies = await pacedLatencies(service, target);
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
      bare.push(await bareRound(target));
    }
  } finally {
    await target.close();
  }
  const check = ratioCheck(reference, bare);
  const rate = (values: number[]) => values.map((value) => Math.round(value)).join(', ');
  const text = [
    'Webhook delivery: the reference (embedded PGlite outbox, claims, signing, undici, recorded attempts) against a bare undici loop posting the same signed bodies, to one local node:http receiver answering 204',
    `${deliveriesPerRound} deliveries per round, ${rounds} rounds alternating, ${connections} connections each side`,
    `  reference  median ${Math.round(median(reference))} deliveries/s (rounds: ${rate(reference)}; target ≥ 2000)`,
    `  bare loop  median ${Math.round(median(bare))} requests/s (rounds: ${rate(bare)})`,
    `  ratio reference/bare ${check.ratio.toFixed(2)} (median of per-round ratios ${check.low.toFixed(2)}–${check.high.toFixed(2)}; target ≥ ${check.target})`,
    `Event recorded → delivery received, ${pacedEvents} events at ${pacedPerSecond}/s on the running reference: p50 ${median(latencies).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms`,
    `Machine: ${availableParallelism()} cores shared with other work (load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(
        ', ',
      )} at the end), receiver and service in this process; compare the ratio, not the absolute numbers.`,
    'Reproduce: npx tsx bench/delivery.ts (or npm run bench -- delivery)',
  ].join('\n');
  return { text, checks: [check] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await run();
  console.log(`${report.text}\n${report.checks.map(formatCheck).join('\n')}`);
  if (!report.checks.every(meetsTarget)) process.exitCode = 1;
}

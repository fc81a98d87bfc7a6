import type { IngestShedding } from '../../reference/index.js';
import { Aggregator, latencySummary } from './aggregator.js';
import { clockNow } from './clock.js';
import { collectResult } from './collect-result.js';
import type { ResolvedScenario } from './resolve-scenario.js';
import type { MemorySample, RunResult, TimelinePoint } from './result.js';
import { type Target, TargetError } from './targets/target.js';
import { DriverWorker, split } from './worker-pool.js';
import { profileData, type Report } from './workers/protocol.js';

export interface RunOptions {
  /** Threads per driver role (publishers, subscribers); REST has one. */
  workersPerRole: number;
  /** A sample sent more than this behind its due time counts as late. */
  lateAfterMs: number;
  /** How long to wait for the last samples after the devices stop. */
  drainMs: number;
  /** Seconds the devices send at the rate before the measured run, to warm the path (JIT, connections) up. */
  warmupSeconds: number;
  onSecond?: (point: TimelinePoint, aggregator: Aggregator) => void;
}

export const defaultRunOptions: RunOptions = {
  workersPerRole: 2,
  lateAfterMs: 10,
  drainMs: 10_000,
  warmupSeconds: 2,
};

type Final<Type extends Report['type']> = Extract<Report, { type: Type }>;

async function spawnDrivers(
  resolved: ResolvedScenario,
  target: Target,
  options: RunOptions,
  aggregator: Aggregator,
) {
  const workers: DriverWorker[] = [];
  const profile = profileData(resolved.profile);
  const add = (role: DriverWorker['role'], setup: ConstructorParameters<typeof DriverWorker>[2]) => {
    const index = workers.length;
    workers.push(new DriverWorker(role, index, setup, (report) => aggregator.add(role, index, report)));
  };
  if (resolved.ingest !== null) {
    const { devices, subscriptions } = await target.provisionIngest(resolved);
    for (const chunk of split(subscriptions, options.workersPerRole))
      add('subscriber', { role: 'subscriber', subscriptions: chunk, format: resolved.ingest.format });
    for (const chunk of split(devices, options.workersPerRole))
      add('publisher', {
        role: 'publisher',
        devices: chunk,
        ratePerStream: resolved.ingest.ratePerStream,
        profile,
        format: resolved.ingest.format,
        qos: resolved.ingest.qos,
        lateAfterMs: options.lateAfterMs,
        warmupMs: options.warmupSeconds * 1000,
      });
  }
  if (resolved.rest !== null) {
    const { keys, fixtures } = await target.provisionRest(resolved);
    add('rest', {
      role: 'rest',
      baseUrl: target.restBaseUrl ?? '',
      keys,
      ratePerKey: resolved.rest.ratePerKey,
      requestsPerKey: resolved.rest.requestsPerKey,
      mix: resolved.rest.section.mix,
      fixtures,
      profile,
      lateAfterMs: options.lateAfterMs,
    });
  }
  return workers;
}

/** Waits until every owed delivery arrived, or nothing more arrived for a second, or the drain time ran out. */
async function drain(aggregator: Aggregator, expected: number, drainMs: number): Promise<void> {
  const deadline = clockNow() + drainMs;
  let last = -1;
  let stableSince = clockNow();
  while (clockNow() < deadline && aggregator.received < expected) {
    if (aggregator.received !== last) {
      last = aggregator.received;
      stableSince = clockNow();
    } else if (clockNow() - stableSince > 1000) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function sampleMemory(target: Target, resolved: ResolvedScenario, startAt: number, samples: MemorySample[]) {
  const every = resolved.scenario.targetMemory?.everySeconds;
  const memory = target.memory;
  if (every === undefined || memory === null) return () => {};
  const take = () =>
    void memory().then(({ rss, heapUsed }) =>
      samples.push({
        second: Math.round((clockNow() - startAt) / 1000),
        rssMb: rss / 2 ** 20,
        heapUsedMb: heapUsed / 2 ** 20,
      }),
    );
  take();
  const timer = setInterval(take, every * 1000);
  return () => clearInterval(timer);
}

/** The target's shedding counters now; the difference of two readings is what it shed in between. */
async function readShedding(target: Target): Promise<IngestShedding | null> {
  return target.shedding === null ? null : target.shedding();
}

function sheddingBetween(before: IngestShedding | null, after: IngestShedding | null): IngestShedding | null {
  if (before === null || after === null) return null;
  return {
    shedMessages: after.shedMessages - before.shedMessages,
    refusedConnections: after.refusedConnections - before.refusedConnections,
    episodes: after.episodes - before.episodes,
  };
}

/** Provisions, starts the drivers together, collects their reports, and judges the thresholds. */
export async function runScenario(
  resolved: ResolvedScenario,
  target: Target,
  options: RunOptions = defaultRunOptions,
): Promise<RunResult> {
  const aggregator = new Aggregator();
  const sheddingBefore = await readShedding(target);
  const workers = await spawnDrivers(resolved, target, options, aggregator);
  try {
    await Promise.all(workers.map((worker) => worker.ready)).catch((error: Error) => {
      throw new TargetError(`a ${target.label} driver could not connect: ${error.message}`);
    });
    for (const worker of workers) await worker.calibrate();
    // REST drivers start at startAt; devices warm up before it (ingest only).
    const startAt = clockNow() + 300 + (resolved.ingest === null ? 0 : options.warmupSeconds * 1000);
    const startedAt = new Date(startAt).toISOString();
    for (const worker of workers) worker.send({ type: 'start', startAt });
    const memorySamples: MemorySample[] = [];
    const stopMemory = sampleMemory(target, resolved, startAt, memorySamples);
    const progress = setInterval(() => {
      const second = Math.floor((clockNow() - startAt) / 1000) - 1;
      if (second >= 0) options.onSecond?.(aggregator.point(second), aggregator);
    }, 1000);
    const senders = workers.filter((worker) => worker.role !== 'subscriber');
    const finals = await Promise.all(senders.map((worker) => worker.final));
    const publisherFinals = finals.filter(
      (report): report is Final<'publisher-final'> => report.type === 'publisher-final',
    );
    const sentByStream = Object.assign({}, ...publisherFinals.map((report) => report.sentByStream)) as Record<
      string,
      number
    >;
    const subscribersPerStream = resolved.ingest?.section.subscribersPerStream ?? 0;
    const expected = Object.values(sentByStream).reduce((sum, sent) => sum + sent * subscribersPerStream, 0);
    await drain(aggregator, expected, options.drainMs);
    const subscribers = workers.filter((worker) => worker.role === 'subscriber');
    for (const worker of subscribers) worker.send({ type: 'stop' });
    const subscriberFinals = (await Promise.all(subscribers.map((worker) => worker.final))) as Array<
      Final<'subscriber-final'>
    >;
    clearInterval(progress);
    stopMemory();
    const shedding = sheddingBetween(sheddingBefore, await readShedding(target));
    return collectResult({
      resolved,
      target: target.label,
      startedAt,
      seconds: (clockNow() - startAt) / 1000,
      aggregator,
      sentByStream,
      publisherFinals,
      subscriberFinals,
      restFinal: finals.find((report): report is Final<'rest-final'> => report.type === 'rest-final') ?? null,
      memorySamples,
      shedding,
      latency: latencySummary(aggregator.latency),
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

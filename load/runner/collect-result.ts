import type { IngestShedding } from '../../reference/index.js';
import { type Aggregator, latencySummary } from './aggregator.js';
import type { PacingReport } from './pacer.js';
import type { ResolvedScenario } from './resolve-scenario.js';
import type { IngestResult, LatencySummary, MemorySample, RestResult, RunResult } from './result.js';
import { judge } from './thresholds.js';
import type { Report } from './workers/protocol.js';

type Final<Type extends Report['type']> = Extract<Report, { type: Type }>;

export interface Collected {
  resolved: ResolvedScenario;
  target: string;
  startedAt: string;
  seconds: number;
  aggregator: Aggregator;
  sentByStream: Record<string, number>;
  publisherFinals: Array<Final<'publisher-final'>>;
  subscriberFinals: Array<Final<'subscriber-final'>>;
  restFinal: Final<'rest-final'> | null;
  memorySamples: MemorySample[];
  shedding: IngestShedding | null;
  latency: LatencySummary;
}

export function mergePacing(reports: readonly PacingReport[]): PacingReport {
  return reports.reduce(
    (sum, report) => ({
      scheduled: sum.scheduled + report.scheduled,
      sent: sum.sent + report.sent,
      late: sum.late + report.late,
      maxLagMs: Math.max(sum.maxLagMs, report.maxLagMs),
    }),
    { scheduled: 0, sent: 0, late: 0, maxLagMs: 0 },
  );
}

function ingestResult(collected: Collected): IngestResult | null {
  const ingest = collected.resolved.ingest;
  if (ingest === null) return null;
  const subscriptions = collected.subscriberFinals.flatMap((report) => report.subscriptions);
  let expected = 0;
  let lost = 0;
  for (const subscription of subscriptions) {
    const sent = collected.sentByStream[subscription.streamId] ?? 0;
    expected += sent;
    lost += Math.max(0, sent - subscription.unique);
  }
  const sum = (pick: (subscription: (typeof subscriptions)[number]) => number) =>
    subscriptions.reduce((total, subscription) => total + pick(subscription), 0);
  return {
    streams: ingest.section.streams,
    subscribers: subscriptions.length,
    sent: Object.values(collected.sentByStream).reduce((total, sent) => total + sent, 0),
    publishErrors: collected.publisherFinals.reduce((total, report) => total + report.errors, 0),
    expected,
    received: sum((subscription) => subscription.received),
    lost,
    lossRatio: expected === 0 ? 0 : lost / expected,
    reordered: sum((subscription) => subscription.reordered),
    duplicated: sum((subscription) => subscription.duplicated),
    clockSkewed: collected.aggregator.clockSkewed,
    latencyMs: collected.latency,
    pacing: mergePacing(collected.publisherFinals.map((report) => report.pacing)),
  };
}

/** 2xx are successes, 429 are counted apart, everything else (network errors too) is an error. */
export function restResult(
  statuses: Record<string, number>,
  latency: LatencySummary,
  pacing: PacingReport,
  expectedRateLimited: number | null,
): RestResult {
  let requests = 0;
  let errors = 0;
  for (const [status, count] of Object.entries(statuses)) {
    requests += count;
    if (!/^2\d\d$/.test(status) && status !== '429') errors += count;
  }
  return {
    requests,
    byStatus: statuses,
    errors,
    rateLimited: statuses['429'] ?? 0,
    expectedRateLimited,
    latencyMs: latency,
    pacing,
  };
}

/** RSS growth from the first half of the samples to the second (means), in MiB; null with fewer than 2. */
export function memoryGrowthMb(samples: readonly MemorySample[]): number | null {
  if (samples.length < 2) return null;
  const half = Math.floor(samples.length / 2);
  const mean = (part: readonly MemorySample[]) =>
    part.reduce((sum, sample) => sum + sample.rssMb, 0) / part.length;
  return mean(samples.slice(samples.length - half)) - mean(samples.slice(0, half));
}

/** The highest RSS sampled, in MiB; null without samples. */
export function peakRssMb(samples: readonly MemorySample[]): number | null {
  return samples.length === 0 ? null : Math.max(...samples.map((sample) => sample.rssMb));
}

export function collectResult(collected: Collected): RunResult {
  const rest = collected.resolved.rest;
  const measured = {
    ingest: ingestResult(collected),
    rest:
      rest === null || collected.restFinal === null
        ? null
        : restResult(
            collected.aggregator.statuses,
            latencySummary(collected.aggregator.restLatency),
            collected.restFinal.pacing,
            rest.requestsPerKey === null ? null : rest.section.keys * (rest.section.beyondLimitPerKey ?? 0),
          ),
    targetMemory:
      collected.resolved.scenario.targetMemory === undefined || collected.memorySamples.length === 0
        ? null
        : { samples: collected.memorySamples, growthMb: memoryGrowthMb(collected.memorySamples) },
  };
  const thresholds = judge(collected.resolved.scenario.thresholds, measured);
  return {
    scenario: collected.resolved.scenario.name,
    description: collected.resolved.scenario.description,
    target: collected.target,
    startedAt: collected.startedAt,
    seconds: collected.seconds,
    ...measured,
    targetShedding: collected.shedding,
    timeline: collected.aggregator.timeline(),
    thresholds,
    passed: thresholds.every((verdict) => verdict.passed),
  };
}

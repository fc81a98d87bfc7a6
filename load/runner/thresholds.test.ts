import { describe, expect, it } from 'vitest';
import type { IngestResult, RestResult } from './result.js';
import { exitCodeOf, judge } from './thresholds.js';

const latency = { count: 1000, p50: 2, p95: 8, p99: 20, max: 40, mean: 3 };
const ingest: IngestResult = {
  streams: 1,
  subscribers: 1,
  sent: 1000,
  publishErrors: 0,
  expected: 1000,
  received: 1000,
  lost: 0,
  lossRatio: 0,
  reordered: 0,
  duplicated: 0,
  clockSkewed: 0,
  latencyMs: latency,
  pacing: { scheduled: 1000, sent: 1000, late: 5, maxLagMs: 12 },
};
const rest: RestResult = {
  requests: 100,
  byStatus: { '200': 99, '429': 1 },
  errors: 0,
  rateLimited: 1,
  expectedRateLimited: 1,
  latencyMs: latency,
  pacing: { scheduled: 100, sent: 100, late: 0, maxLagMs: 1 },
};

describe('thresholds and the exit code', () => {
  const cases: Array<
    [string, { thresholds: Parameters<typeof judge>[0]; measured: Parameters<typeof judge>[1]; exit: 0 | 1 }]
  > = [
    [
      'all met',
      {
        thresholds: { lossRatioMax: 0, latencyMs: { p99: 50 }, restP99Ms: 50 },
        measured: { ingest, rest, targetMemory: null },
        exit: 0,
      },
    ],
    [
      'one loss breaks a zero-loss threshold',
      {
        thresholds: { lossRatioMax: 0 },
        measured: { ingest: { ...ingest, lost: 1, lossRatio: 0.001 }, rest: null, targetMemory: null },
        exit: 1,
      },
    ],
    [
      'p99 over its limit',
      {
        thresholds: { latencyMs: { p99: 10 } },
        measured: { ingest, rest: null, targetMemory: null },
        exit: 1,
      },
    ],
    [
      'a run that delivered nothing cannot pass a latency threshold',
      {
        thresholds: { latencyMs: { p99: 50 } },
        measured: { ingest: { ...ingest, expected: 0 }, rest: null, targetMemory: null },
        exit: 1,
      },
    ],
    [
      'reordering',
      {
        thresholds: { reorderedMax: 0 },
        measured: { ingest: { ...ingest, reordered: 2 }, rest: null, targetMemory: null },
        exit: 1,
      },
    ],
    [
      'duplicates within the allowance',
      {
        thresholds: { duplicatedMax: 3 },
        measured: { ingest: { ...ingest, duplicated: 3 }, rest: null, targetMemory: null },
        exit: 0,
      },
    ],
    [
      'the driver fell behind',
      {
        thresholds: { pacingLateRatioMax: 0.001 },
        measured: { ingest, rest: null, targetMemory: null },
        exit: 1,
      },
    ],
    [
      'exactly the 429s beyond the limit',
      {
        thresholds: { rateLimitedExactlyBeyondLimit: true },
        measured: { ingest: null, rest, targetMemory: null },
        exit: 0,
      },
    ],
    [
      'one 429 too many',
      {
        thresholds: { rateLimitedExactlyBeyondLimit: true },
        measured: { ingest: null, rest: { ...rest, rateLimited: 2 }, targetMemory: null },
        exit: 1,
      },
    ],
    [
      'no 429 where one is owed',
      {
        thresholds: { rateLimitedExactlyBeyondLimit: true },
        measured: { ingest: null, rest: { ...rest, rateLimited: 0 }, targetMemory: null },
        exit: 1,
      },
    ],
    [
      'REST errors',
      {
        thresholds: { restErrorRateMax: 0 },
        measured: { ingest: null, rest: { ...rest, errors: 1 }, targetMemory: null },
        exit: 1,
      },
    ],
    [
      '429 share',
      {
        thresholds: { rateLimitedShareMax: 0 },
        measured: { ingest: null, rest, targetMemory: null },
        exit: 1,
      },
    ],
    [
      'memory growth',
      {
        thresholds: { targetMemoryGrowthMbMax: 10 },
        measured: { ingest: null, rest: null, targetMemory: { samples: [], growthMb: 11 } },
        exit: 1,
      },
    ],
    [
      'memory not sampled (a deployment) does not fail',
      {
        thresholds: { targetMemoryGrowthMbMax: 10 },
        measured: { ingest: null, rest: null, targetMemory: null },
        exit: 0,
      },
    ],
  ];
  it.each(cases)('%s', (_name, { thresholds, measured, exit }) => {
    const verdicts = judge(thresholds, measured);
    expect(verdicts.length).toBeGreaterThan(0);
    expect(exitCodeOf(verdicts)).toBe(exit);
  });
});

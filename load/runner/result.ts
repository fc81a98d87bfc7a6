import type { IngestShedding } from '../../reference/index.js';
import type { PacingReport } from './pacer.js';

export interface LatencySummary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  mean: number | null;
}

export interface IngestResult {
  streams: number;
  subscribers: number;
  /** Samples published (the publish call completed). */
  sent: number;
  publishErrors: number;
  /** Deliveries owed: each stream's sent × its subscribers. */
  expected: number;
  received: number;
  lost: number;
  lossRatio: number;
  reordered: number;
  duplicated: number;
  /** Samples whose receive time came before their send time (clock trouble); counted as 0 ms. */
  clockSkewed: number;
  latencyMs: LatencySummary;
  pacing: PacingReport;
}

export interface RestResult {
  requests: number;
  byStatus: Record<string, number>;
  /** Network errors and any status but 2xx and 429. */
  errors: number;
  rateLimited: number;
  /** With beyondLimitPerKey: the 429s the plan's limit calls for. */
  expectedRateLimited: number | null;
  latencyMs: LatencySummary;
  pacing: PacingReport;
}

export interface TimelinePoint {
  second: number;
  sent: number;
  received: number;
  p50: number | null;
  p99: number | null;
  restRequests: number;
  restP99: number | null;
  gaps: number;
}

export interface MemorySample {
  second: number;
  rssMb: number;
  heapUsedMb: number;
}

export interface ThresholdVerdict {
  name: string;
  limit: string;
  actual: string;
  passed: boolean;
}

export interface RunResult {
  scenario: string;
  description: string;
  target: string;
  startedAt: string;
  seconds: number;
  ingest: IngestResult | null;
  rest: RestResult | null;
  targetMemory: { samples: MemorySample[]; growthMb: number | null } | null;
  /** What the target's ingest shed under overload during the run (warm-up included); null when it cannot say. */
  targetShedding: IngestShedding | null;
  timeline: TimelinePoint[];
  thresholds: ThresholdVerdict[];
  passed: boolean;
}

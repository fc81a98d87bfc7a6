import type { IngestResult, RestResult, RunResult, ThresholdVerdict } from './result.js';
import type { Thresholds } from './scenario.js';

type Measured = Pick<RunResult, 'ingest' | 'rest' | 'targetMemory'>;

function format(value: number | null): string {
  if (value === null) return 'n/a';
  return Number.isInteger(value) ? String(value) : value.toPrecision(4);
}

/** `actual <= limit`; a measurement that does not exist (no samples) fails, so an empty run never passes. */
function atMost(name: string, actual: number | null, limit: number): ThresholdVerdict {
  return {
    name,
    limit: `<= ${format(limit)}`,
    actual: format(actual),
    passed: actual !== null && actual <= limit,
  };
}

function ingestVerdicts(thresholds: Thresholds, ingest: IngestResult | null): ThresholdVerdict[] {
  const verdicts: ThresholdVerdict[] = [];
  const need = (name: string, limit: number, pick: (result: IngestResult) => number | null) =>
    verdicts.push(atMost(name, ingest === null || ingest.expected === 0 ? null : pick(ingest), limit));
  if (thresholds.lossRatioMax !== undefined) need('loss_ratio', thresholds.lossRatioMax, (r) => r.lossRatio);
  if (thresholds.reorderedMax !== undefined) need('reordered', thresholds.reorderedMax, (r) => r.reordered);
  if (thresholds.duplicatedMax !== undefined)
    need('duplicated', thresholds.duplicatedMax, (r) => r.duplicated);
  for (const quantile of ['p50', 'p95', 'p99'] as const) {
    const limit = thresholds.latencyMs?.[quantile];
    if (limit !== undefined) need(`latency_ms ${quantile}`, limit, (r) => r.latencyMs[quantile]);
  }
  if (thresholds.pacingLateRatioMax !== undefined)
    need('pacing_late_ratio', thresholds.pacingLateRatioMax, (r) =>
      r.pacing.scheduled === 0 ? null : r.pacing.late / r.pacing.scheduled,
    );
  return verdicts;
}

function restVerdicts(thresholds: Thresholds, rest: RestResult | null): ThresholdVerdict[] {
  const verdicts: ThresholdVerdict[] = [];
  const share = (count: number) => (rest === null || rest.requests === 0 ? null : count / rest.requests);
  if (thresholds.restP99Ms !== undefined)
    verdicts.push(atMost('rest_latency_ms p99', rest?.latencyMs.p99 ?? null, thresholds.restP99Ms));
  if (thresholds.restErrorRateMax !== undefined)
    verdicts.push(atMost('rest_error_rate', share(rest?.errors ?? 0), thresholds.restErrorRateMax));
  if (thresholds.rateLimitedShareMax !== undefined)
    verdicts.push(atMost('rest_429_share', share(rest?.rateLimited ?? 0), thresholds.rateLimitedShareMax));
  if (thresholds.rateLimitedExactlyBeyondLimit === true) {
    const expected = rest?.expectedRateLimited ?? null;
    verdicts.push({
      name: 'rest_429_beyond_limit',
      limit: `== ${format(expected)}`,
      actual: format(rest?.rateLimited ?? null),
      passed: expected !== null && rest !== null && rest.rateLimited === expected,
    });
  }
  return verdicts;
}

/** Every threshold the scenario names, judged against what was measured. */
export function judge(thresholds: Thresholds, measured: Measured): ThresholdVerdict[] {
  const verdicts = [
    ...ingestVerdicts(thresholds, measured.ingest),
    ...restVerdicts(thresholds, measured.rest),
  ];
  const memoryLimit = thresholds.targetMemoryGrowthMbMax;
  if (memoryLimit !== undefined)
    verdicts.push(
      // Only a target the runner started can be sampled; for any other the verdict says so and does not fail.
      measured.targetMemory === null
        ? { name: 'target_memory_growth_mb', limit: `<= ${memoryLimit}`, actual: 'not sampled', passed: true }
        : atMost('target_memory_growth_mb', measured.targetMemory.growthMb, memoryLimit),
    );
  return verdicts;
}

/** 0 when every threshold passed, 1 otherwise (2 is kept for bad input). */
export function exitCodeOf(verdicts: readonly ThresholdVerdict[]): 0 | 1 {
  return verdicts.every((verdict) => verdict.passed) ? 0 : 1;
}

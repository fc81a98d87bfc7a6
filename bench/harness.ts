/**
 * Benchmarks measure side by side in one process: each candidate runs in alternating rounds so that machine noise
 * hits all of them alike, and the report gives medians over rounds and the ratio against the baseline.
 */
export interface Candidate {
  label: string;
  /** One operation; called `operationsPerRound` times per round. */
  run: () => unknown;
}

export interface BenchResult {
  label: string;
  medianOpsPerSecond: number;
  rounds: number[];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function compareThroughput(
  candidates: readonly Candidate[],
  options: { rounds?: number; operationsPerRound?: number; warmupRounds?: number } = {},
): BenchResult[] {
  const { rounds = 15, operationsPerRound = 20_000, warmupRounds = 3 } = options;
  const samples = candidates.map(() => [] as number[]);
  const forward = candidates.map((_, index) => index);
  const backward = [...forward].reverse();
  for (let round = 0; round < warmupRounds + rounds; round += 1) {
    // Every other round in reverse order: a candidate that always ran after the same neighbour would pay for its
    // garbage (collections it left) and inherit its cache state in every round, which pairing rounds does not cancel.
    for (const index of round % 2 === 0 ? forward : backward) {
      const candidate = candidates[index] as Candidate;
      const started = process.hrtime.bigint();
      for (let operation = 0; operation < operationsPerRound; operation += 1) candidate.run();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (round >= warmupRounds) samples[index]?.push(operationsPerRound / seconds);
    }
  }
  return candidates.map((candidate, index) => ({
    label: candidate.label,
    medianOpsPerSecond: median(samples[index] ?? []),
    rounds: samples[index] ?? [],
  }));
}

/** Medians of wall times of an async task, in milliseconds. */
export async function medianMilliseconds(
  task: () => Promise<unknown>,
  rounds: number,
): Promise<{ median: number; all: number[] }> {
  const all: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    await task();
    all.push(performance.now() - started);
  }
  return { median: median(all), all };
}

export function formatThroughput(title: string, results: readonly BenchResult[]): string {
  const baseline = results[results.length - 1];
  const lines = results.map((result) => {
    const ratio = baseline === undefined ? 1 : result.medianOpsPerSecond / baseline.medianOpsPerSecond;
    return `  ${result.label.padEnd(44)} ${Math.round(result.medianOpsPerSecond).toLocaleString('en-US').padStart(12)} ops/s  ${ratio.toFixed(2)}x`;
  });
  return [`${title} (median of rounds; ratio against the last line)`, ...lines].join('\n');
}

/** One ratio a benchmark promises: a candidate against its baseline, measured in the same run. */
export interface RatioCheck {
  /** What is compared, e.g. `validators, invalid input`. */
  label: string;
  candidate: string;
  baseline: string;
  /** Median over rounds of candidate/baseline. */
  ratio: number;
  /** Lowest and highest per-round ratio, to show the noise. */
  low: number;
  high: number;
  target: number;
  /** `at-least`: throughput (higher is better); `at-most`: time (lower is better). */
  direction: 'at-least' | 'at-most';
}

/** What every benchmark module's `run` returns; the runner prints `text` and judges `checks`. */
export interface BenchReport {
  text: string;
  checks: RatioCheck[];
}

export function meetsTarget(check: RatioCheck): boolean {
  return check.direction === 'at-least' ? check.ratio >= check.target : check.ratio <= check.target;
}

/**
 * The ratio of two candidates measured in the same rounds: the median of per-round ratios, which cancels drift that
 * hits both alike better than a ratio of medians does.
 */
export function pairedRatio(
  label: string,
  candidate: BenchResult,
  baseline: BenchResult,
  target: number,
  direction: RatioCheck['direction'] = 'at-least',
): RatioCheck {
  const ratios = candidate.rounds.map((value, index) => value / (baseline.rounds[index] ?? Number.NaN));
  return {
    label,
    candidate: candidate.label,
    baseline: baseline.label,
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    target,
    direction,
  };
}

export function formatCheck(check: RatioCheck): string {
  const verdict = meetsTarget(check) ? 'meets' : 'MISSES';
  const sign = check.direction === 'at-least' ? '≥' : '≤';
  return `${check.label}: ${check.candidate} / ${check.baseline} = ${check.ratio.toFixed(2)}x (rounds ${check.low.toFixed(2)}–${check.high.toFixed(2)}), target ${sign} ${check.target}x: ${verdict}`;
}

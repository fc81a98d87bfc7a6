import type { K6Plan } from './scenario-plan.js';

// Subscribers connect during these seconds before the first sample; they wait this long for the last ones.
export const startSeconds = 5;
export const drainSeconds = 5;

type Executor = Record<string, unknown>;

/** An open-model executor: constant-arrival-rate without ramps, ramping-arrival-rate through the ramps. */
function arrivalRate(
  plan: K6Plan,
  perSecond: number,
  vus: { preAllocatedVUs: number; maxVUs: number },
): Executor {
  // k6 rates are whole numbers per time unit: per second when the rate is whole, per minute otherwise.
  const whole = Number.isInteger(perSecond);
  const unit = whole ? { timeUnit: '1s', scale: 1 } : { timeUnit: '1m', scale: 60 };
  const rate = (value: number) => Math.round(value * unit.scale);
  const common = { startTime: `${startSeconds}s`, timeUnit: unit.timeUnit, ...vus };
  if (plan.stages.length === 0)
    return {
      executor: 'constant-arrival-rate',
      rate: rate(perSecond),
      duration: `${plan.holdSeconds}s`,
      ...common,
    };
  return {
    executor: 'ramping-arrival-rate',
    startRate: 0,
    stages: [
      ...plan.stages.map((stage) => ({
        duration: `${stage.seconds}s`,
        target: rate((perSecond * stage.percent) / 100),
      })),
      { duration: `${plan.holdSeconds}s`, target: rate(perSecond) },
    ],
    ...common,
  };
}

function loadSeconds(plan: K6Plan): number {
  return plan.stages.reduce((sum, stage) => sum + stage.seconds, 0) + plan.holdSeconds;
}

function restScenario(plan: K6Plan, rest: NonNullable<K6Plan['rest']>): Executor {
  const vus = { preAllocatedVUs: 10, maxVUs: 200, exec: 'rest' };
  if (rest.requestsPerKey === null) return { ...arrivalRate(plan, rest.keys * rest.ratePerKey, vus) };
  // Exactly requestsPerKey per key within the run (which fits one rate window): N iterations per run-length unit.
  const seconds = loadSeconds(plan);
  return {
    executor: 'constant-arrival-rate',
    rate: rest.keys * rest.requestsPerKey,
    timeUnit: `${seconds}s`,
    duration: `${seconds}s`,
    startTime: `${startSeconds}s`,
    ...vus,
  };
}

/** k6 `scenarios`: one single-VU device scenario per stream, the subscribers, the REST calls. */
export function k6Scenarios(plan: K6Plan): Record<string, Executor> {
  const scenarios: Record<string, Executor> = {};
  const ingest = plan.ingest;
  if (ingest !== null) {
    for (let index = 0; index < ingest.streams; index += 1)
      scenarios[`device_${index}`] = {
        ...arrivalRate(plan, ingest.ratePerStream, { preAllocatedVUs: 1, maxVUs: 1 }),
        exec: 'device',
        env: { STREAM_INDEX: String(index) },
      };
    const subscribers = ingest.streams * ingest.subscribersPerStream;
    if (subscribers > 0)
      scenarios.subscribers = {
        executor: 'per-vu-iterations',
        vus: subscribers,
        iterations: 1,
        maxDuration: `${startSeconds + loadSeconds(plan) + drainSeconds + 10}s`,
        exec: 'subscriber',
      };
  }
  if (plan.rest !== null) scenarios.rest = restScenario(plan, plan.rest);
  return scenarios;
}

/** The scenario's thresholds as k6 threshold expressions on the script's metrics. */
export function k6Thresholds(plan: K6Plan): Record<string, string[]> {
  const given = plan.thresholds as Record<string, number | Record<string, number> | true>;
  const thresholds: Record<string, string[]> = {};
  const add = (metric: string, expression: string) => {
    thresholds[metric] = [...(thresholds[metric] ?? []), expression];
  };
  if (typeof given.lossRatioMax === 'number') add('sample_loss', `rate<=${given.lossRatioMax}`);
  if (typeof given.reorderedMax === 'number') add('samples_reordered', `count<=${given.reorderedMax}`);
  if (typeof given.duplicatedMax === 'number') add('samples_duplicated', `count<=${given.duplicatedMax}`);
  const latency = typeof given.latencyMs === 'object' ? given.latencyMs : {};
  for (const [quantile, limit] of Object.entries(latency))
    add('sample_latency', `p(${quantile.slice(1)})<=${limit}`);
  if (typeof given.pacingLateRatioMax === 'number' && plan.ingest !== null) {
    // k6 drops an iteration it cannot start in time where the Node runner sends it late: the same allowance.
    const owed = plan.ingest.streams * plan.ingest.ratePerStream * loadSeconds(plan);
    add('dropped_iterations', `count<=${Math.floor(owed * given.pacingLateRatioMax)}`);
  }
  if (typeof given.restP99Ms === 'number')
    add('http_req_duration{scenario:rest}', `p(99)<=${given.restP99Ms}`);
  if (typeof given.restErrorRateMax === 'number') add('rest_errors', `rate<=${given.restErrorRateMax}`);
  if (typeof given.rateLimitedShareMax === 'number')
    add('rest_rate_limited', `rate<=${given.rateLimitedShareMax}`);
  if (given.rateLimitedExactlyBeyondLimit === true && plan.rest !== null)
    add('rest_rate_limited_count', `count==${plan.rest.keys * (plan.rest.beyondLimitPerKey ?? 0)}`);
  return thresholds;
}

export { loadSeconds };

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import type { LoadScenarioOptions } from '../../config.js';
import { isObject } from '../../ir/json.js';
import type { ApiModel } from '../../ir/model.js';
import type { Problem } from '../../problems.js';

/** What a k6 script needs of one scenario, the spec's numbers filled in (the Node runner resolves the same way). */
export interface K6Plan {
  name: string;
  description: string;
  /** The scenario file, relative to the repository root. */
  source: string;
  stages: Array<{ seconds: number; percent: number }>;
  holdSeconds: number;
  ingest: {
    streams: number;
    quality: string;
    qualityRateHz: number;
    ratePerStream: number;
    format: 'json' | 'msgpack' | 'csv';
    qos: 0 | 1;
    subscribersPerStream: number;
  } | null;
  rest: {
    plan: string;
    keys: number;
    limitPerWindow: number;
    windowSeconds: number;
    /** Requests per second per key at full level. */
    ratePerKey: number;
    /** With beyondLimitPerKey: exactly this many per key. */
    requestsPerKey: number | null;
    beyondLimitPerKey: number | null;
    mix: Array<{ operation: string; weight: number }>;
  } | null;
  thresholds: Record<string, unknown>;
}

type Facts = {
  qualityRates: Record<string, number>;
  planLimits: Record<string, number>;
  windowSeconds: number;
};

/** `x-<fact>` of each `const` member of a named enumeration schema: `{ high: 1000 }`. */
function memberFact(model: ApiModel, schemaName: string, fact: string): Record<string, number> {
  const schema = model.schemas.find((named) => named.name === schemaName)?.schema;
  const members = isObject(schema) && Array.isArray(schema.oneOf) ? schema.oneOf : [];
  return Object.fromEntries(
    members
      .filter(isObject)
      .flatMap((member) =>
        typeof member[fact] === 'number' ? [[String(member.const), member[fact] as number]] : [],
      ),
  );
}

function factsOf(model: ApiModel): Facts {
  const rateLimit = model.extensions['x-rate-limit'];
  return {
    qualityRates: memberFact(model, 'Quality', 'x-sample-rate-hz'),
    planLimits: memberFact(model, 'AccountPlan', 'x-requests-per-minute'),
    windowSeconds:
      isObject(rateLimit) && typeof rateLimit.windowSeconds === 'number' ? rateLimit.windowSeconds : 0,
  };
}

type ScenarioData = Record<string, unknown> & {
  name: string;
  description: string;
  durationSeconds: number;
  stages?: Array<{ seconds: number; percent: number }>;
  ingest?: Record<string, unknown>;
  rest?: Record<string, unknown>;
  thresholds: Record<string, unknown>;
};

function area(stages: K6Plan['stages'], holdSeconds: number): number {
  let from = 0;
  let sum = 0;
  for (const stage of stages) {
    sum += ((from + stage.percent / 100) / 2) * stage.seconds;
    from = stage.percent / 100;
  }
  return sum + holdSeconds;
}

function planOf(data: ScenarioData, source: string, facts: Facts, report: (message: string) => void): K6Plan {
  const stages = data.stages ?? [];
  const ingest = data.ingest as
    | (Record<string, number> & { quality: string; format: NonNullable<K6Plan['ingest']>['format'] })
    | undefined;
  const rest = data.rest as
    | (Record<string, number> & { plan: string; mix: NonNullable<K6Plan['rest']>['mix'] })
    | undefined;
  const qualityRateHz = ingest === undefined ? 0 : facts.qualityRates[ingest.quality];
  const limitPerWindow = rest === undefined ? 0 : facts.planLimits[rest.plan];
  if (qualityRateHz === undefined)
    report(`the spec gives no x-sample-rate-hz for quality ${ingest?.quality}`);
  if (limitPerWindow === undefined) report(`the spec gives no x-requests-per-minute for plan ${rest?.plan}`);
  const totalArea = area(stages, data.durationSeconds);
  const requestsPerKey =
    rest?.beyondLimitPerKey === undefined ? null : (limitPerWindow ?? 0) + rest.beyondLimitPerKey;
  return {
    name: data.name,
    description: data.description,
    source,
    stages,
    holdSeconds: data.durationSeconds,
    ingest:
      ingest === undefined
        ? null
        : {
            streams: ingest.streams as number,
            quality: ingest.quality,
            qualityRateHz: qualityRateHz ?? 0,
            ratePerStream: ((qualityRateHz ?? 0) * (ingest.percentOfQualityRate ?? 100)) / 100,
            format: ingest.format,
            qos: (ingest.qos ?? 0) as 0 | 1,
            subscribersPerStream: ingest.subscribersPerStream as number,
          },
    rest:
      rest === undefined
        ? null
        : {
            plan: rest.plan,
            keys: rest.keys as number,
            limitPerWindow: limitPerWindow ?? 0,
            windowSeconds: facts.windowSeconds,
            ratePerKey:
              requestsPerKey === null
                ? (((limitPerWindow ?? 0) / facts.windowSeconds) * (rest.percentOfLimit ?? 100)) / 100
                : requestsPerKey / totalArea,
            requestsPerKey,
            beyondLimitPerKey: rest.beyondLimitPerKey ?? null,
            mix: rest.mix,
          },
    thresholds: data.thresholds,
  };
}

/** Reads, validates and resolves every scenario of the folder; a broken one is a problem with its pointer. */
export function loadPlans(
  model: ApiModel,
  options: LoadScenarioOptions,
  rootDir: string,
  problems: Problem[],
): K6Plan[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  const validate = ajv.compile(JSON.parse(readFileSync(options.schema, 'utf8')) as object);
  const facts = factsOf(model);
  const files = readdirSync(options.scenarios)
    .filter((file) => file.endsWith('.yaml'))
    .sort();
  return files.flatMap((file) => {
    const source = path.relative(rootDir, path.join(options.scenarios, file)).split(path.sep).join('/');
    const problem = (pointer: string, message: string) =>
      problems.push({ severity: 'error', file: source, pointer, message, rule: 'load/scenario' });
    const data: unknown = parse(readFileSync(path.join(options.scenarios, file), 'utf8'));
    if (!validate(data)) {
      for (const error of validate.errors ?? []) problem(error.instancePath, error.message ?? error.keyword);
      return [];
    }
    return [planOf(data as ScenarioData, source, facts, (message) => problem('', message))];
  });
}

// The shape of a scenario file, as load/scenario.schema.json describes it (validated before it is used).

export interface Stage {
  seconds: number;
  percent: number;
}

export type Quality = 'low' | 'medium' | 'high';
export type Format = 'json' | 'msgpack' | 'csv';
export type Plan = 'free' | 'paid';
export type RestOperation =
  | 'getAccount'
  | 'listStreams'
  | 'getStream'
  | 'createStream'
  | 'createSubscriberToken'
  | 'listReports'
  | 'getReport'
  | 'listWebhooks';

export interface IngestSection {
  streams: number;
  quality: Quality;
  percentOfQualityRate?: number;
  format: Format;
  qos?: 0 | 1;
  subscribersPerStream: number;
}

export interface RestSection {
  plan: Plan;
  keys: number;
  percentOfLimit?: number;
  beyondLimitPerKey?: number;
  mix: Array<{ operation: RestOperation; weight: number }>;
}

export interface Thresholds {
  lossRatioMax?: number;
  reorderedMax?: number;
  duplicatedMax?: number;
  latencyMs?: { p50?: number; p95?: number; p99?: number };
  pacingLateRatioMax?: number;
  restP99Ms?: number;
  restErrorRateMax?: number;
  rateLimitedShareMax?: number;
  rateLimitedExactlyBeyondLimit?: true;
  targetMemoryGrowthMbMax?: number;
}

export interface Scenario {
  name: string;
  description: string;
  durationSeconds: number;
  stages?: Stage[];
  ingest?: IngestSection;
  rest?: RestSection;
  targetMemory?: { everySeconds: number };
  thresholds: Thresholds;
}

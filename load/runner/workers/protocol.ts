import type { HistogramBuckets } from '../histogram.js';
import type { LoadProfile } from '../load-profile.js';
import type { PacingReport } from '../pacer.js';
import type { Format, RestOperation, Stage } from '../scenario.js';

/** The messages between the main thread and its drivers. Every time is on the main thread's clock. */
export interface HistogramSnapshot {
  buckets: HistogramBuckets;
  count: number;
  maxMs: number;
  sumMs: number;
}

export interface ProfileData {
  stages: Stage[];
  holdSeconds: number;
}

export function profileData(profile: LoadProfile): ProfileData {
  return { stages: [...profile.stages], holdSeconds: profile.holdSeconds };
}

export interface Device {
  streamId: string;
  brokerUrl: string;
  username?: string;
  password?: string;
}

export interface PublisherSetup {
  role: 'publisher';
  devices: Device[];
  ratePerStream: number;
  profile: ProfileData;
  format: Format;
  qos: 0 | 1;
  lateAfterMs: number;
  /** Milliseconds at the rate before `startAt`, with samples the subscribers do not count. */
  warmupMs: number;
}

export type Subscription =
  | { kind: 'ws'; streamId: string; baseUrl: string; token: string }
  | { kind: 'mqtt'; streamId: string; brokerUrl: string; topic: string };

export interface SubscriberSetup {
  role: 'subscriber';
  subscriptions: Subscription[];
  /** For MQTT receivers: the payload format to decode. */
  format: Format;
}

export interface RestFixtures {
  streamId: string;
  reportId: string;
}

export interface RestSetup {
  role: 'rest';
  baseUrl: string;
  keys: string[];
  ratePerKey: number;
  /** Exactly this many per key over the run, or null for the rate over the whole run. */
  requestsPerKey: number | null;
  mix: Array<{ operation: RestOperation; weight: number }>;
  fixtures: RestFixtures;
  profile: ProfileData;
  lateAfterMs: number;
}

export type WorkerSetup = PublisherSetup | SubscriberSetup | RestSetup;

/** Main → worker. */
export type Command =
  | { type: 'clock'; sentAt: number }
  | { type: 'offset'; offsetMs: number }
  | { type: 'start'; startAt: number }
  | { type: 'stop' };

/** Worker → main. */
export type Report =
  | { type: 'clock'; sentAt: number; workerAt: number }
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | {
      type: 'second';
      second: number;
      sent?: number;
      received?: number;
      gaps?: number;
      clockSkewed?: number;
      latency?: HistogramSnapshot;
      statuses?: Record<string, number>;
    }
  | { type: 'publisher-final'; sentByStream: Record<string, number>; errors: number; pacing: PacingReport }
  | { type: 'subscriber-final'; subscriptions: SubscriptionFinal[] }
  | { type: 'rest-final'; pacing: PacingReport };

export interface SubscriptionFinal {
  streamId: string;
  unique: number;
  received: number;
  reordered: number;
  duplicated: number;
  highest: number;
  gaps: number;
}

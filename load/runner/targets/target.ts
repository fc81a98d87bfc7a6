import type { IngestShedding } from '../../../reference/index.js';
import type { ResolvedScenario } from '../resolve-scenario.js';
import type { Device, RestFixtures, Subscription } from '../workers/protocol.js';

/** What the runner drives: how devices and subscribers reach it, which keys carry REST load, how it stops. */
export interface Target {
  /** For the summary: `embedded reference`, `mosquitto mqtt://…`, a base URL. */
  label: string;
  restBaseUrl: string | null;
  /** Streams, device credentials and subscriptions for the scenario's ingest section. */
  provisionIngest(resolved: ResolvedScenario): Promise<{ devices: Device[]; subscriptions: Subscription[] }>;
  /** Fresh keys of the plan for the REST load (each with an untouched rate window), and the fixtures it reads. */
  provisionRest(resolved: ResolvedScenario): Promise<{ keys: string[]; fixtures: RestFixtures }>;
  /** The target's own memory, when the runner started it. */
  memory: (() => Promise<{ rss: number; heapUsed: number }>) | null;
  /** What the target's ingest shed under overload since it started, when the runner started it. */
  shedding: (() => Promise<IngestShedding>) | null;
  release(): Promise<void>;
}

/** What the runner can read from a target it started itself (the embedded reference); null for the others. */
export type TargetProbes = Pick<Target, 'memory' | 'shedding'>;

/** A target that cannot serve the scenario, or cannot be reached: one line for the user, exit code 2. */
export class TargetError extends Error {
  override name = 'TargetError';
}

// The reference Telemetry Streaming Service: the one public entry point (conformance/ and load/ use only this).

export type { ReferenceFaults } from './faults.js';
export type { IngestShedding } from './ingest/overload-guard.js';
export type { SeededCredentials } from './seed.js';
export type { ServiceUrls } from './services/urls.js';
export { type RunningService, type StartOptions, start } from './start.js';

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningService, type StartOptions, start } from '../../start.js';

/** What a test reads of a failed-attempt log line. */
export type LogEntry = { message: string } & Record<string, unknown>;

export interface DeliveryService {
  service: RunningService;
  dataDir: string;
  logged: LogEntry[];
  /** A REST call with the paid account's secret key; resolves to status and parsed body. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read the parsed JSON of whichever operation they call.
  api(method: string, pathAndQuery: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Stops the service, keeping the data directory for a restart. */
  stop(): Promise<void>;
  /** Starts again on the same data directory (same clock, same deliveries). */
  restart(overrides?: Partial<StartOptions>): Promise<DeliveryService>;
  /** Stops and removes the data directory. */
  close(): Promise<void>;
}

/** The reference service on a fresh data directory, with private webhook targets allowed (local receivers). */
export async function startDeliveryService(
  options: Partial<StartOptions> = {},
  existing?: { dataDir: string; key: string },
): Promise<DeliveryService> {
  const dataDir = existing?.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'delivery-')));
  const logged: LogEntry[] = [];
  const service = await start({
    dataDir,
    allowPrivateWebhookTargets: true,
    webhookLog: { info: (fields, message) => logged.push({ ...fields, message }) },
    ...options,
  });
  const key = existing?.key ?? service.seeded?.accounts.paid.keys.secret.key;
  if (key === undefined) throw new Error('no seeded key: start on a fresh data directory');
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await service.stop();
  };
  return {
    service,
    dataDir,
    logged,
    async api(method, pathAndQuery, body) {
      const response = await fetch(`${service.urls.baseUrl}${pathAndQuery}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : JSON.parse(text) };
    },
    stop,
    async restart(overrides = {}) {
      await stop();
      return startDeliveryService({ ...options, ...overrides }, { dataDir, key });
    },
    async close() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { CreateStreamRequestBody } from '../../../generated/types/operations.js';
import { type Clock, systemClock } from '../../clock.js';
import type { LiveMessage } from '../../fanout/fanout-bus.js';
import { InProcessFanoutBus } from '../../fanout/in-process-fanout-bus.js';
import { createAccount } from '../../seed.js';
import type { ServiceContext } from '../../services/context.js';
import { eventObject } from '../../services/events.js';
import { createStream } from '../../services/streams.js';
import { createWebhook } from '../../services/webhooks.js';
import { openStore } from '../../storage/open-store.js';
import type { Store } from '../../storage/store.js';
import { type IngestServer, startIngestServer } from '../ingest-server.js';
import type { OverloadGuard } from '../overload-guard.js';

const scratchRoot = fileURLToPath(new URL('../../../.tmp/', import.meta.url));
const deviceEvents = ['device.online', 'device.offline', 'device.error'] as const;

export interface TestStream {
  id: string;
  key: string;
  accountId: string;
  /** Every message the bus numbered for this stream, in order. */
  messages: LiveMessage[];
  /** The samples ingest accepted, in order. */
  samples(): Array<{ ts: number; values: Record<string, number> }>;
  /** The device events recorded for the stream's account, oldest first (through its webhook's deliveries). */
  events(): Promise<Array<ReturnType<typeof eventObject>>>;
}

export interface IngestFixture {
  store: Store;
  clock: Clock;
  bus: InProcessFanoutBus;
  server: IngestServer;
  url: string;
  createStream(body?: Partial<CreateStreamRequestBody>): Promise<TestStream>;
  /** Stops the ingest server and starts another on the same store (a service restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function eventsOf(store: Store, context: ServiceContext, webhookId: string) {
  const page = await store.deliveries.list(context.accountId, { limit: 100 }, { webhookId });
  const events = [];
  for (const delivery of [...(page?.items ?? [])].reverse()) {
    const event = await store.events.get(context.accountId, delivery.eventId);
    if (event !== null) events.push(eventObject(event));
  }
  return events;
}

/** A real ingest server on a free loopback port over a fresh embedded store, and a bus listener that sees all. */
export async function startIngestFixture(options: { overload?: OverloadGuard } = {}): Promise<IngestFixture> {
  await mkdir(scratchRoot, { recursive: true });
  const directory = await mkdtemp(path.join(scratchRoot, 'ingest-'));
  const store = await openStore({ kind: 'embedded', dataDir: path.join(directory, 'database') });
  const clock = systemClock();
  const bus = new InProcessFanoutBus();
  const byStream = new Map<string, LiveMessage[]>();
  bus.subscribeAll((message) => byStream.get(message.streamId)?.push(message));
  const start = () =>
    startIngestServer({ host: '127.0.0.1', port: 0, store, clock, bus, overload: options.overload });
  const fixture: IngestFixture = {
    store,
    clock,
    bus,
    server: await start(),
    get url() {
      return fixture.server.url;
    },
    async createStream(body = {}) {
      const account = await createAccount(store, clock, 'paid', 'local-1');
      const urls = { baseUrl: '', authUrl: '', mqttBroker: fixture.url, wsUrl: 'ws://127.0.0.1' };
      const context = { store, clock, urls, accountId: account.accountId, signingKey: randomBytes(32) };
      const created = await createStream(context, { title: 'Pump 7', ...body }, 'local-1');
      const webhook = await createWebhook(context, {
        url: 'https://hooks.example.com/ingest',
        events: [...deviceEvents],
      });
      const messages: LiveMessage[] = [];
      byStream.set(created.id, messages);
      return {
        id: created.id,
        key: created.streamKey,
        accountId: account.accountId,
        messages,
        samples: () => messages.flatMap((message) => (message.type === 'telemetry' ? [message.sample] : [])),
        events: () => eventsOf(store, context, webhook.id),
      };
    },
    async restart() {
      await fixture.server.close();
      fixture.server = await start();
    },
    async close() {
      await fixture.server.close();
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
  return fixture;
}

export function useIngestFixture(options: { overload?: OverloadGuard } = {}): () => IngestFixture {
  let fixture: IngestFixture | undefined;
  beforeAll(async () => {
    fixture = await startIngestFixture(options);
  });
  afterAll(async () => {
    await fixture?.close();
  });
  return () => {
    if (fixture === undefined) throw new Error('the ingest fixture is not running (beforeAll failed)');
    return fixture;
  };
}

/** Polls `check` until it returns true or `milliseconds` pass (for effects written asynchronously). */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  milliseconds = 10_000,
): Promise<void> {
  const deadline = Date.now() + milliseconds;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${milliseconds} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The types of the device events recorded for a stream, oldest first. */
export async function eventTypesOf(stream: TestStream): Promise<string[]> {
  return (await stream.events()).map((event) => event.type);
}

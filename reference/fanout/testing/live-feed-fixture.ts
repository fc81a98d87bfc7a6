import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../clock.js';
import { createAccount } from '../../seed.js';
import type { ServiceContext } from '../../services/context.js';
import { createStream } from '../../services/streams.js';
import { createSubscriberToken } from '../../services/subscriber-tokens.js';
import { openStore } from '../../storage/open-store.js';
import type { Store } from '../../storage/store.js';
import { InProcessFanoutBus } from '../in-process-fanout-bus.js';
import { LiveFeedServer } from '../live-feed-server.js';

const scratchRoot = fileURLToPath(new URL('../../../.tmp/', import.meta.url));

/** The live feed on a bare HTTP server of its own, with a real store, a manual clock and a real bus. */
export interface LiveFeedFixture {
  store: Store;
  clock: ManualClock;
  bus: InProcessFanoutBus;
  liveFeed: LiveFeedServer;
  server: Server;
  /** `ws://127.0.0.1:<port>`. */
  wsUrl: string;
  context: ServiceContext;
  /** Failures the live feed reported (not a subscriber's fault). */
  errors: unknown[];
  newStream(): Promise<string>;
  token(streamId: string, expiresIn?: number): Promise<string>;
  /** Publishes `count` telemetry messages as a device would; `ts` is the index. */
  publishTelemetry(streamId: string, count: number, from?: number): void;
  close(): Promise<void>;
}

export async function startLiveFeedFixture(
  options: { pingIntervalMilliseconds?: number } = {},
): Promise<LiveFeedFixture> {
  await mkdir(scratchRoot, { recursive: true });
  const directory = await mkdtemp(path.join(scratchRoot, 'live-feed-'));
  const store = await openStore({ kind: 'embedded', dataDir: path.join(directory, 'database') });
  const clock = new ManualClock();
  const signingKey = new Uint8Array(randomBytes(32));
  const bus = new InProcessFanoutBus();
  const errors: unknown[] = [];
  const liveFeed = new LiveFeedServer({
    store,
    clock,
    signingKey,
    bus,
    onError: (error) => errors.push(error),
    ...options,
  });
  const server = createServer((_request, response) => response.writeHead(404).end());
  liveFeed.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const wsUrl = `ws://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const account = await createAccount(store, clock, 'paid', 'local-1');
  const context: ServiceContext = {
    store,
    clock,
    signingKey,
    accountId: account.accountId,
    urls: {
      baseUrl: 'http://127.0.0.1/v2',
      authUrl: 'http://127.0.0.1',
      mqttBroker: 'mqtt://127.0.0.1',
      wsUrl,
    },
  };
  return {
    store,
    clock,
    bus,
    liveFeed,
    server,
    wsUrl,
    context,
    errors,
    newStream: async () => (await createStream(context, { title: 'fan-out test' }, 'local-1')).id,
    token: async (streamId, expiresIn) =>
      (await createSubscriberToken(context, streamId, expiresIn === undefined ? {} : { expiresIn })).token,
    publishTelemetry(streamId, count, from = 0) {
      for (let index = from; index < from + count; index++)
        bus.publish({
          type: 'telemetry',
          streamId,
          receivedAt: Date.now(),
          sample: { ts: index, values: { v: index } },
        });
    },
    async close() {
      await liveFeed.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

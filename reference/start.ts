import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultBaseUrl } from '../generated/client/index.js';
import { apiPolicies } from '../generated/types/facts.js';
import { AccessTokens } from './auth/access-tokens.js';
import { startCluster } from './cluster/cluster.js';
import { ConfigError } from './config-error.js';
import { takeLock } from './data-dir-lock.js';
import { type DeliveryLog, jsonLineLog } from './delivery/delivery-log.js';
import { OutboxSignal } from './delivery/outbox-signal.js';
import { startWebhookDelivery } from './delivery/webhook-delivery.js';
import type { FanoutBus } from './fanout/fanout-bus.js';
import { InProcessFanoutBus } from './fanout/in-process-fanout-bus.js';
import { LiveFeedServer } from './fanout/live-feed-server.js';
import type { ReferenceFaults } from './faults.js';
import { newAddressLimit } from './http/address-limit.js';
import { buildApps } from './http/build-apps.js';
import type { ServiceDependencies } from './http/dependencies.js';
import { listen } from './http/listen.js';
import type { LogLevel } from './http/request-log.js';
import { startIngestServer } from './ingest/ingest-server.js';
import type { IngestShedding, OverloadSettings } from './ingest/overload-guard.js';
import { persistentClock } from './persistent-clock.js';
import { FixedWindowRateLimiter } from './rate-limiter.js';
import { StreamRecorder } from './recording/stream-recorder.js';
import { localDefaultRegion, type SeedExtras, type SeededCredentials, seedIfEmpty } from './seed.js';
import { StreamLifecycleEvents } from './services/stream-lifecycle.js';
import type { ServiceUrls } from './services/urls.js';
import { cachedStore, newStoreCaches } from './storage/cached-store.js';
import { keyChangeDefaults, listenForKeyChanges } from './storage/key-change-listener.js';
import { openStore } from './storage/open-store.js';
import type { Store } from './storage/store.js';

export interface StartOptions {
  /** Holds the embedded database and the signing key. */
  dataDir: string;
  /** PostgreSQL instead of the embedded database. */
  postgresUrl?: string | undefined;
  /**
   * A store already open, used instead of the embedded database or PostgreSQL, and closed on stop. Tests and
   * benchmarks only (the in-memory store of `reference/storage/testing`); the data directory still holds the key.
   */
  store?: Store;
  host?: string;
  /** 0 (the default) takes a free port. */
  apiPort?: number;
  authPort?: number;
  /** The MQTT ingest server's port; 0 (the default) takes a free port. */
  mqttPort?: number;
  /** How many times faster than the wall clock the service clock runs (tests of expiry, windows, retries). */
  timeScale?: number;
  /** The version segment `{base_url}` ends with. */
  apiBasePath?: string;
  /** Addresses the API reports, when they differ from the listeners (behind a proxy): `{base_url}` etc. */
  publicUrls?: Partial<ServiceUrls>;
  defaultRegion?: string;
  /** Local testing only: GET /oauth/authorize grants at once. */
  autoApproveConsent?: boolean;
  /** The redirect URI of the OAuth client seeded on first start. */
  oauthRedirectUri?: string;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (Fastify's `trustProxy`): false (the default:
   * the socket's peer), true (any), a hop count, or addresses/CIDRs separated by commas.
   */
  trustProxy?: boolean | number | string;
  /** Origins that may call the publishable-key operations from a browser; `*` (the default) is any. */
  corsOrigins?: string[];
  /** One log line per request on stdout at `info`; `silent` (the default of `start()`) logs nothing. */
  logLevel?: LogLevel;
  /** Requests per window and client address without a valid credential; the spec's x-rate-limit.perAddress by default. */
  addressRequestsPerWindow?: number;
  /** Test fixtures for a first start (extra secret keys, a revoked key); none for a normal start. */
  seedExtras?: SeedExtras;
  /** Local testing only: webhooks may point at loopback and private addresses (and use plain http on loopback). */
  allowPrivateWebhookTargets?: boolean;
  /** Where failed delivery attempts are logged (info level); JSON lines on stdout by default. */
  webhookLog?: DeliveryLog;
  /** true: webhooks are sent from a worker thread of their own (ADR 0032); by default from the service's thread. */
  webhookSenderThread?: boolean;
  /** Several nodes (ADR 0023): Redis carries the fan-out, device leases, rate windows and cache invalidation. */
  redisUrl?: string | undefined;
  /** This node's name in leases and Redis client names; host name and pid by default. */
  nodeId?: string | undefined;
  /** With Redis: how long a dead node's streams stay taken (5 s by default). */
  deviceLeaseMilliseconds?: number | undefined;
  /**
   * On PostgreSQL: how long a cached API key may outlive a change no node heard of (1 s by default with Redis, 60 s
   * without, where only a half-open listening connection could miss one; ADR 0022).
   */
  keyCacheMilliseconds?: number | undefined;
  /** When MQTT ingest counts as overloaded and sheds load (ADR 0029); engine tuning, defaults in ingest/overload-guard.ts. */
  ingestOverload?: Partial<OverloadSettings>;
  /** Test-only broken behaviour (reference/faults.ts); off by default, and `npm start` cannot set it. */
  faults?: ReferenceFaults;
}

export interface RunningService {
  urls: ServiceUrls;
  /** Credentials created on first start (a fresh data directory); null on later starts. */
  seeded: SeededCredentials | null;
  dependencies: ServiceDependencies;
  /** Live messages of every stream: ingest publishes, the fan-out and recording listen. */
  bus: FanoutBus;
  /** With Redis: this node's name among several; null for the single-process service. */
  nodeId: string | null;
  /** What MQTT ingest shed under overload since start (x-ingest-rules.overload, ADR 0029): for load reports. */
  ingestShedding(): IngestShedding;
  stop(): Promise<void>;
}

/** The signing key lives in the data directory so tokens survive a restart; created on first start. */
async function signingKeyIn(dataDir: string): Promise<Uint8Array> {
  const file = path.join(dataDir, 'signing-key');
  try {
    return new Uint8Array(await readFile(file));
  } catch {
    const key = randomBytes(32);
    await writeFile(file, key, { mode: 0o600 });
    return new Uint8Array(key);
  }
}

export async function start(options: StartOptions): Promise<RunningService> {
  const host = options.host ?? '127.0.0.1';
  if (options.redisUrl !== undefined && options.postgresUrl === undefined)
    throw new ConfigError(
      'TELEMETRY_REDIS_URL (several nodes) needs TELEMETRY_POSTGRES_URL: the embedded store is one process’s',
    );
  await mkdir(options.dataDir, { recursive: true });
  const releaseLock = options.postgresUrl === undefined ? await takeLock(options.dataDir) : async () => {};
  const openedStore =
    options.store ??
    (await openStore(
      options.postgresUrl === undefined
        ? { kind: 'embedded', dataDir: path.join(options.dataDir, 'database') }
        : { kind: 'postgres', connectionString: options.postgresUrl },
    ));
  const clock = await persistentClock(openedStore, options.timeScale ?? 1);
  const cluster =
    options.redisUrl === undefined
      ? undefined
      : await startCluster({
          ...options,
          redisUrl: options.redisUrl,
          clock,
          timeScale: options.timeScale ?? 1,
        });
  // On PostgreSQL, keys and accounts are cached while a connection of their own hears every change (ADR 0022).
  const keyChanges =
    options.postgresUrl === undefined || options.store !== undefined
      ? undefined
      : await listenForKeyChanges(
          options.postgresUrl,
          cluster?.caches ??
            newStoreCaches(undefined, options.keyCacheMilliseconds ?? keyChangeDefaults.cacheMilliseconds),
        );
  // Deliveries written through this store wake the dispatcher at once (ADR 0018).
  const outbox = new OutboxSignal();
  const store = outbox.watch(
    keyChanges === undefined
      ? openedStore
      : (cluster?.cached(openedStore, keyChanges) ??
          cachedStore(openedStore, keyChanges.caches, undefined, keyChanges)),
  );
  const webhookTargets = {
    allowPrivate: options.allowPrivateWebhookTargets ?? false,
    userInfoAccepted: options.faults?.webhookUserInfoAccepted === true,
  };
  const signingKey = await signingKeyIn(options.dataDir);
  const streamLifecycle = new StreamLifecycleEvents();
  // With several nodes a deletion through any node closes this node's subscribers too (ADR 0023).
  const sharedLifecycle = (await cluster?.sharedLifecycle(streamLifecycle)) ?? streamLifecycle;
  const dependencies: ServiceDependencies = {
    store,
    clock,
    signingKey,
    urls: { baseUrl: '', authUrl: '', mqttBroker: '', wsUrl: '' },
    accessTokens: new AccessTokens(signingKey, clock),
    rateLimiter:
      cluster?.rateLimiter ?? new FixedWindowRateLimiter(clock, apiPolicies.rateLimit.windowSeconds),
    // With Redis, the address windows are shared too (ADR 0023): keys of their own beside the credentials' windows.
    addressLimit: newAddressLimit(
      cluster?.rateLimiter ?? new FixedWindowRateLimiter(clock, apiPolicies.rateLimit.windowSeconds),
      options.addressRequestsPerWindow,
    ),
    autoApproveConsent: options.autoApproveConsent ?? false,
    streamLifecycle: sharedLifecycle,
    webhookTargets,
    feedVersions: cluster?.feedVersions,
  };
  // --- Live data plane: the fan-out bus and MQTT ingest (ADR 0010). Ingest idles streams a crash left live. ---
  const bus = cluster?.bus ?? new InProcessFanoutBus((error) => console.error('fan-out listener:', error));
  const leases = cluster?.leases;
  const ingest = await startIngestServer({
    host,
    port: options.mqttPort ?? 0,
    store,
    clock,
    bus,
    leases,
    faults: options.faults,
    overloadSettings: options.ingestOverload,
  });
  cluster?.sweep(() => ingest.sessions.recover());
  // --- end of the live data plane ---
  // The apps need their URLs (prefixes, URLs in responses) before they listen, and the ports only exist after.
  const apiListener = await listen(host, options.apiPort ?? 0);
  const authListener = await listen(host, options.authPort ?? 0);
  // The version segment `{base_url}` ends with, as the spec's server URL gives it.
  const basePath = options.apiBasePath ?? new URL(defaultBaseUrl).pathname.replace(/\/+$/, '');
  Object.assign(dependencies.urls, {
    baseUrl: `http://${host}:${apiListener.port}${basePath}`,
    authUrl: `http://${host}:${authListener.port}`,
    mqttBroker: ingest.url,
    wsUrl: `ws://${host}:${apiListener.port}`,
    ...options.publicUrls,
  } satisfies ServiceUrls);
  const apps = await buildApps(dependencies, {
    trustProxy: options.trustProxy,
    logLevel: options.logLevel,
    corsOrigins: options.corsOrigins,
  });
  // The live feed shares the REST listener: `{ws_url}` is its host, and upgrades never reach Fastify.
  const liveFeed = new LiveFeedServer({
    store,
    clock,
    signingKey,
    bus,
    faults: options.faults,
    counts: cluster?.subscriberCounts,
  });
  // One process holds every subscriber; with several nodes the others' counts are live, so they are left alone.
  if (options.redisUrl === undefined) await liveFeed.recover();
  liveFeed.attach(apps.api.server);
  streamLifecycle.onStreamDeleted((streamId) => liveFeed.streamDeleted(streamId));
  const recorder = new StreamRecorder({ store, clock, bus, faults: options.faults });
  await apiListener.handOver(apps.api);
  await authListener.handOver(apps.auth);
  const redirectUri = options.oauthRedirectUri ?? `http://${host}/oauth/callback`;
  const seeded = await seedIfEmpty(
    store,
    clock,
    options.defaultRegion ?? localDefaultRegion,
    redirectUri,
    options.seedExtras,
  );
  const delivery = await startWebhookDelivery({
    store,
    clock,
    policy: webhookTargets,
    log: options.webhookLog ?? jsonLineLog(),
    soleOwner: options.postgresUrl === undefined,
    outbox,
    faults: options.faults,
    ...(options.webhookSenderThread === undefined ? {} : { senderThread: options.webhookSenderThread }),
  });
  return {
    urls: dependencies.urls,
    seeded,
    dependencies,
    bus,
    nodeId: cluster?.nodeId ?? null,
    ingestShedding: () => ({ ...ingest.overload.counts }),
    async stop() {
      // Devices first, so their streams are idle (and device.offline written) before the store closes.
      await ingest.close();
      await liveFeed.close();
      await recorder.close();
      await Promise.all([apps.api.close(), apps.auth.close()]);
      await bus.close();
      await delivery.stop();
      await cluster?.close();
      await keyChanges?.close();
      await store.close();
      await releaseLock();
    },
  };
}

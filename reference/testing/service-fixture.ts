import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import { AccessTokens } from '../auth/access-tokens.js';
import { ManualClock } from '../clock.js';
import { buildApps, type ServiceApps } from '../http/build-apps.js';
import type { ServiceDependencies } from '../http/dependencies.js';
import { FixedWindowRateLimiter } from '../rate-limiter.js';
import { type CreatedAccount, createAccount, type Plan } from '../seed.js';
import type { ServiceUrls } from '../services/urls.js';
import { openStore } from '../storage/open-store.js';
import type { Store } from '../storage/store.js';

/** Scratch space inside the repository (ignored by git), so a test never writes outside it. */
const scratchRoot = fileURLToPath(new URL('../../.tmp/', import.meta.url));

/** Addresses the service reports; nothing listens on them, requests go through `inject()`. */
export const fixtureUrls: ServiceUrls = {
  baseUrl: 'http://127.0.0.1:8080/v2',
  authUrl: 'http://127.0.0.1:8081',
  mqttBroker: 'mqtt://127.0.0.1:1883',
  wsUrl: 'ws://127.0.0.1:8080',
};
export const fixtureRegion = 'local-1';

/** One embedded store, one manual clock and the two apps, built like `start()` does but without listening. */
export interface ServiceFixture {
  clock: ManualClock;
  store: Store;
  dependencies: ServiceDependencies;
  apps: ServiceApps;
  /** A fresh account with one key of each kind, so tests share no data and no rate window. */
  createAccount(plan?: Plan): Promise<CreatedAccount>;
  /** More apps on the same store and clock with other settings (auto-approved consent); closed with the fixture. */
  buildAppsWith(overrides: Partial<ServiceDependencies>): Promise<ServiceApps>;
  /** Moves the clock past the current rate window, so every key starts a new one. */
  nextRateWindow(): void;
  close(): Promise<void>;
}

export async function startServiceFixture(): Promise<ServiceFixture> {
  await mkdir(scratchRoot, { recursive: true });
  const directory = await mkdtemp(path.join(scratchRoot, 'reference-'));
  const store = await openStore({ kind: 'embedded', dataDir: path.join(directory, 'database') });
  const clock = new ManualClock();
  const signingKey = new Uint8Array(randomBytes(32));
  const dependencies: ServiceDependencies = {
    store,
    clock,
    signingKey,
    urls: fixtureUrls,
    accessTokens: new AccessTokens(signingKey, clock),
    rateLimiter: new FixedWindowRateLimiter(clock, apiPolicies.rateLimit.windowSeconds),
    autoApproveConsent: false,
    webhookTargets: { allowPrivate: true },
  };
  const apps = await buildApps(dependencies);
  const built = [apps];
  return {
    clock,
    store,
    dependencies,
    apps,
    createAccount: (plan = 'paid') => createAccount(store, clock, plan, fixtureRegion),
    async buildAppsWith(overrides) {
      const more = await buildApps({ ...dependencies, ...overrides });
      built.push(more);
      return more;
    },
    nextRateWindow: () => clock.advance(apiPolicies.rateLimit.windowSeconds * 1000),
    async close() {
      await Promise.all(built.flatMap((each) => [each.api.close(), each.auth.close()]));
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Starts one fixture for the test file in beforeAll and closes it in afterAll; cases call the getter. */
export function useServiceFixture(): () => ServiceFixture {
  let fixture: ServiceFixture | undefined;
  beforeAll(async () => {
    fixture = await startServiceFixture();
  });
  afterAll(async () => {
    await fixture?.close();
  });
  return () => {
    if (fixture === undefined) throw new Error('the service fixture is not running (beforeAll failed)');
    return fixture;
  };
}

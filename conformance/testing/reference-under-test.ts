import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { type RunningService, start } from '../../reference/index.js';
import type { Profile } from '../catalogue/requirement.js';
import { embeddedLogOptions, embeddedOAuthClients } from '../harness/embedded-target.js';
import type { TargetDescription } from '../harness/target.js';

/** Secret keys per run: one stands in as the paid key, the rest feed the run's key pool (as the embedded default). */
const keysPerRun = 7;

/** The credentials a fault may need: it swaps one key for another to fake acceptance. */
export interface Credentials {
  paidSecret: string;
  freeSecret: string;
  publishable: string;
  revoked: string;
}

/**
 * The reference started like the embedded default (fresh data directory, auto-approved consent, a revoked key), but
 * with enough extra secret keys that every run gets keys of its own: a run's key pool knows nothing of the requests
 * of earlier runs, and the service's rate windows outlive a run.
 */
export interface ReferenceUnderTest {
  service: RunningService;
  credentials: Credentials;
  /** A target at `urls` (the reference itself, or a proxy in front of it) with keys no other run of this reference had. */
  targetAt(urls: { baseUrl: string; authUrl: string }, profile?: Profile): TargetDescription;
  /**
   * The environment of a run against this reference (harness/address-budget.ts): one ledger for all its runs, since
   * they reach it from one address (through proxies too) and its per-address window outlives a run.
   */
  addressEnvironment: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export async function startReference(root: string, runs: number): Promise<ReferenceUnderTest> {
  const scratchRoot = path.join(root, '.tmp');
  await mkdir(scratchRoot, { recursive: true });
  const dataDir = await mkdtemp(path.join(scratchRoot, 'conformance-reference-'));
  const service = await start({
    dataDir,
    autoApproveConsent: true,
    // The broken variants create webhooks at loopback receivers, as the embedded default does.
    allowPrivateWebhookTargets: true,
    seedExtras: { extraSecretKeys: keysPerRun * runs, revokedKey: true, moreOAuthClients: true },
    ...embeddedLogOptions(false),
  });
  const seeded = service.seeded;
  if (seeded === null || seeded.revokedKey === null)
    throw new Error('the reference did not seed its fixtures');
  const { free, paid } = seeded.accounts;
  const spare = [...seeded.extraSecretKeys];
  const credentials: Credentials = {
    paidSecret: paid.keys.secret.key,
    freeSecret: free.keys.secret.key,
    publishable: paid.keys.publishable.key,
    revoked: seeded.revokedKey,
  };
  return {
    service,
    credentials,
    addressEnvironment: {
      CONFORMANCE_ADDRESS_LEDGER: `${dataDir}-address-ledger.jsonl`,
      CONFORMANCE_ADDRESS_SCOPE: service.urls.baseUrl,
    },
    targetAt(urls, profile = 'full') {
      const own = spare.splice(0, keysPerRun);
      const [paidSecret, ...extras] = own;
      if (paidSecret === undefined || extras.length < keysPerRun - 1)
        throw new Error(`no keys left for another run: started for ${runs} runs`);
      return {
        embedded: false,
        profile,
        baseUrl: urls.baseUrl,
        authUrl: urls.authUrl,
        mqttUrl: null,
        wsUrl: null,
        webhookPublicUrl: null,
        webhookListen: null,
        timeScale: 1,
        slow: false,
        latencyP99Milliseconds: 50,
        fastClock: null,
        keys: {
          freeSecret: credentials.freeSecret,
          paidSecret,
          paidSecretExtras: extras,
          publishable: credentials.publishable,
          revoked: credentials.revoked,
        },
        ...embeddedOAuthClients(seeded),
        autoApproveConsent: true,
        paidAccountId: paid.accountId,
      };
    },
    async stop() {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
      await rm(`${dataDir}-address-ledger.jsonl`, { force: true });
    },
  };
}

import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  type RunningService,
  type SeededCredentials,
  type StartOptions,
  start,
} from '../../reference/index.js';
import type { Profile } from '../catalogue/requirement.js';
import type { FastClockTarget, OAuthClientInput, TargetDescription } from './target.js';

/**
 * The clock of the fast reference: 3600× runs the 10 h 36 min retry schedule in about 11 s, and a subscriber token
 * of two hours expires in two seconds. The main reference keeps the wall clock, so rate windows and lifetimes read
 * on REST responses stay checkable.
 */
export const embeddedFastTimeScale = 3600;

/**
 * What the embedded reference logs into the harness's output: nothing by default (its request and delivery lines
 * would bury the matrix), warnings and delivery lines with --verbose.
 */
export function embeddedLogOptions(verbose: boolean): Pick<StartOptions, 'logLevel' | 'webhookLog'> {
  return verbose ? { logLevel: 'warn' } : { logLevel: 'silent', webhookLog: { info() {} } };
}

/** Options the embedded default needs beyond the ordinary start: webhooks may target the suite on 127.0.0.1. */
function startOptions(dataDir: string, extra: Partial<StartOptions>): StartOptions {
  return {
    dataDir,
    autoApproveConsent: true,
    // Local testing: the checks' receivers listen on loopback; their failed attempts are not the report's business.
    allowPrivateWebhookTargets: true,
    ...embeddedLogOptions(false),
    ...extra,
  };
}

export interface EmbeddedReference {
  service: RunningService;
  stop(): Promise<void>;
}

/** One reference on a fresh data directory under `root`. */
export async function startEmbedded(root: string, extra: Partial<StartOptions>): Promise<EmbeddedReference> {
  const dataDir = await mkdtemp(path.join(root, '.tmp-conformance-'));
  try {
    const service = await start(startOptions(dataDir, extra));
    return {
      service,
      async stop() {
        await service.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The fast-clock reference as the checks see it. */
export function fastClockOf(reference: EmbeddedReference): FastClockTarget {
  const seeded = reference.service.seeded;
  if (seeded === null) throw new Error('the fast-clock reference did not seed credentials');
  return {
    baseUrl: reference.service.urls.baseUrl,
    authUrl: reference.service.urls.authUrl,
    mqttUrl: reference.service.urls.mqttBroker,
    wsUrl: reference.service.urls.wsUrl,
    paidSecret: seeded.accounts.paid.keys.secret.key,
    paidAccountId: seeded.accounts.paid.accountId,
    oauth: clientInput(seeded.oauthClient),
    timeScale: embeddedFastTimeScale,
  };
}

function clientInput(client: SeededCredentials['oauthClient']): OAuthClientInput {
  return {
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUri: client.redirectUris[0] ?? '',
  };
}

/** The OAuth clients a reference seeded, as a target names them. */
export function embeddedOAuthClients(
  seeded: SeededCredentials,
): Pick<TargetDescription, 'oauth' | 'oauthSecondClient' | 'oauthPublicClient'> {
  const more = seeded.moreOAuthClients;
  return {
    oauth: clientInput(seeded.oauthClient),
    oauthSecondClient: more === null ? null : clientInput(more.second),
    oauthPublicClient:
      more === null
        ? null
        : { clientId: more.public.clientId, redirectUri: more.public.redirectUris[0] ?? '' },
  };
}

/** The target description of an embedded main reference (wall clock) beside a fast-clock one. */
export function embeddedTarget(
  main: RunningService,
  fast: FastClockTarget | null,
  profile: Profile,
  latencyP99Milliseconds: number,
): TargetDescription {
  const seeded = main.seeded;
  if (seeded === null) throw new Error('the embedded reference did not seed credentials on its first start');
  const { free, paid } = seeded.accounts;
  return {
    embedded: true,
    profile,
    baseUrl: main.urls.baseUrl,
    authUrl: main.urls.authUrl,
    mqttUrl: main.urls.mqttBroker,
    wsUrl: main.urls.wsUrl,
    webhookPublicUrl: null,
    webhookListen: { host: '127.0.0.1', port: 0 },
    timeScale: 1,
    slow: false,
    latencyP99Milliseconds,
    fastClock: fast,
    keys: {
      freeSecret: free.keys.secret.key,
      paidSecret: paid.keys.secret.key,
      paidSecretExtras: seeded.extraSecretKeys,
      publishable: paid.keys.publishable.key,
      revoked: seeded.revokedKey,
    },
    ...embeddedOAuthClients(seeded),
    autoApproveConsent: true,
    paidAccountId: paid.accountId,
  };
}

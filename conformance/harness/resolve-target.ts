import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { start } from '../../reference/index.js';
import { InputError, type InputValues, profileOf } from './inputs.js';
import type { TargetDescription } from './target.js';

export interface ResolvedTarget {
  target: TargetDescription;
  /** Stops the embedded reference and removes its data; nothing for an external target. */
  release(): Promise<void>;
}

/** The embedded default: the reference on free ports, a fresh data directory, fixtures for the checks. */
async function embedded(values: InputValues, root: string): Promise<ResolvedTarget> {
  // Before the start: a bad input must not leave a running reference (and its data directory) behind.
  const profile = profileOf(values, true);
  const dataDir = await mkdtemp(path.join(root, '.tmp-conformance-'));
  const service = await start({
    dataDir,
    autoApproveConsent: true,
    seedExtras: { extraSecretKeys: 6, revokedKey: true },
    // Local testing: the checks' receivers listen on loopback; their failed attempts are not the report's business.
    allowPrivateWebhookTargets: true,
    webhookLog: { info() {} },
  });
  const seeded = service.seeded;
  if (seeded === null) throw new Error('the embedded reference did not seed credentials on its first start');
  const { free, paid } = seeded.accounts;
  return {
    target: {
      embedded: true,
      profile,
      baseUrl: service.urls.baseUrl,
      authUrl: service.urls.authUrl,
      mqttUrl: null,
      wsUrl: null,
      webhookPublicUrl: null,
      keys: {
        freeSecret: free.keys.secret.key,
        paidSecret: paid.keys.secret.key,
        paidSecretExtras: seeded.extraSecretKeys,
        publishable: paid.keys.publishable.key,
        revoked: seeded.revokedKey,
      },
      oauth: {
        clientId: seeded.oauthClient.clientId,
        clientSecret: seeded.oauthClient.clientSecret,
        redirectUri: seeded.oauthClient.redirectUris[0] ?? '',
      },
      autoApproveConsent: true,
      paidAccountId: paid.accountId,
    },
    async release() {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function reachable(url: string): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new InputError(`cannot reach ${url} (${cause}); check --base-url or TELEMETRY_BASE_URL`);
  }
}

export async function resolveTarget(values: InputValues, root: string): Promise<ResolvedTarget> {
  if (values['base-url'] === undefined) return embedded(values, root);
  let baseUrl: URL;
  try {
    baseUrl = new URL(values['base-url']);
  } catch {
    throw new InputError(`--base-url is not a URL: ${values['base-url']}`);
  }
  // Without a paid key every check that sends a request would fail for want of input, not for the deployment.
  if (values['paid-key'] === undefined && values['paid-key-extras'] === undefined)
    throw new InputError(
      '--paid-key (TELEMETRY_PAID_SECRET_KEY) is needed with --base-url: most checks use it',
    );
  await reachable(baseUrl.toString());
  const oauth =
    values['oauth-client-id'] && values['oauth-client-secret'] && values['oauth-redirect-uri']
      ? {
          clientId: values['oauth-client-id'],
          clientSecret: values['oauth-client-secret'],
          redirectUri: values['oauth-redirect-uri'],
        }
      : null;
  return {
    target: {
      embedded: false,
      profile: profileOf(values, false),
      baseUrl: baseUrl.toString().replace(/\/+$/, ''),
      authUrl: values['auth-url'] ?? null,
      mqttUrl: values['mqtt-url'] ?? null,
      wsUrl: values['ws-url'] ?? null,
      webhookPublicUrl: values['webhook-public-url'] ?? null,
      keys: {
        freeSecret: values['free-key'] ?? null,
        paidSecret: values['paid-key'] ?? null,
        paidSecretExtras: (values['paid-key-extras'] ?? '').split(',').filter((key) => key !== ''),
        publishable: values['publishable-key'] ?? null,
        revoked: values['revoked-key'] ?? null,
      },
      oauth,
      autoApproveConsent: false,
      paidAccountId: null,
    },
    release: async () => {},
  };
}

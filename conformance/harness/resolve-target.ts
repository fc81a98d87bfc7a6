import { embeddedFastTimeScale, embeddedTarget, fastClockOf, startEmbedded } from './embedded-target.js';
import { hostAndPort, InputError, type InputValues, isOn, numberOf, profileOf } from './inputs.js';
import type { TargetDescription } from './target.js';

export interface ResolvedTarget {
  target: TargetDescription;
  /** Stops the embedded reference and removes its data; nothing for an external target. */
  release(): Promise<void>;
}

/** Default p99 publish-to-receive latency at the top sample rate, for the embedded default and a deployment. */
const defaultLatencyP99Milliseconds = 50;

/** The embedded default: the reference on free ports and a fresh data directory, and a fast-clock twin. */
async function embedded(values: InputValues, root: string): Promise<ResolvedTarget> {
  // Before the start: a bad input must not leave a running reference (and its data directory) behind.
  const profile = profileOf(values, true);
  const latency = numberOf(values, 'latency-p99-ms', defaultLatencyP99Milliseconds);
  const main = await startEmbedded(root, { seedExtras: { extraSecretKeys: 6, revokedKey: true } });
  const fast = await startEmbedded(root, { timeScale: embeddedFastTimeScale }).catch(async (error) => {
    await main.stop();
    throw error;
  });
  return {
    target: embeddedTarget(main.service, fastClockOf(fast), profile, latency),
    async release() {
      await Promise.all([main.stop(), fast.stop()]);
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

/**
 * Where the webhook receiver listens: --webhook-listen, else every interface at the public URL's port (a public URL
 * that reaches this machine directly), else nowhere: a deployment cannot reach a receiver it was not told about.
 */
function webhookListenOf(values: InputValues): { host: string; port: number } | null {
  const listen = hostAndPort(values, 'webhook-listen');
  if (listen !== null) return listen;
  const publicUrl = values['webhook-public-url'];
  if (publicUrl === undefined) return null;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new InputError(`--webhook-public-url is not a URL: ${publicUrl}`);
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { host: '0.0.0.0', port };
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
      webhookListen: webhookListenOf(values),
      timeScale: numberOf(values, 'time-scale', 1),
      slow: isOn(values, 'slow'),
      latencyP99Milliseconds: numberOf(values, 'latency-p99-ms', defaultLatencyP99Milliseconds),
      fastClock: null,
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

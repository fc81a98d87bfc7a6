import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { StartOptions } from '../../reference/index.js';
import { hostAndPort, InputError, type InputValues, isOn, numberOf, profileOf } from './inputs.js';
import type { OAuthClientInput, TargetDescription } from './target.js';

export interface ResolvedTarget {
  target: TargetDescription;
  /**
   * The embedded default only: a third reference (wall clock, accounts and ports of its own) for the data-plane checks,
   * so they run beside the REST checks without sharing an account's webhooks, streams, key windows or address window.
   */
  dataPlane?: TargetDescription | null;
  /** Stops the embedded reference and removes its data; nothing for an external target. */
  release(): Promise<void>;
}

/**
 * Default p99 publish-to-receive latency at the top sample rate, for the embedded default and a deployment: a bound
 * that catches a fan-out that stalls (seconds), generous enough that a loaded shared machine (p99 about 0.5 s measured
 * at load average 20) does not fail a conformant target. A deployment gives its own objective with the flag.
 */
export const defaultLatencyP99Milliseconds = 1000;

/**
 * The twins of the embedded default beside its main reference: the fast-clock one (for the time-scaled checks) and the
 * data-plane one. A run that needs neither (the mutation job, running a few check files) starts only the main one.
 */
export interface EmbeddedTwins {
  fastClock: boolean;
  dataPlane: boolean;
  /**
   * A store for each embedded reference instead of its embedded database (the mutation job: the mutants are in the
   * services and auth above the store, and starting a database per mutant was most of a mutant's time).
   */
  store?: () => NonNullable<StartOptions['store']>;
}

/** A fresh store of the twins' kind for one reference, or none (the embedded database). */
const storeOf = (twins: EmbeddedTwins) => (twins.store === undefined ? {} : { store: twins.store() });

/** The embedded default: the reference on free ports and a fresh data directory, and its twins. */
async function embedded(values: InputValues, root: string, twins: EmbeddedTwins): Promise<ResolvedTarget> {
  // Before the start: a bad input must not leave a running reference (and its data directory) behind.
  const profile = profileOf(values, true);
  const latency = numberOf(values, 'latency-p99-ms', defaultLatencyP99Milliseconds);
  // Imported here, not at the top: it loads the whole reference (seconds), which a deployment never needs.
  const { embeddedFastTimeScale, embeddedLogOptions, embeddedTarget, fastClockOf, startEmbedded } =
    await import('./embedded-target.js');
  const logs = embeddedLogOptions(isOn(values, 'verbose'));
  // Started together: most of a start is the embedded database's set-up, which waits on nothing the others hold.
  const starts = await Promise.allSettled([
    startEmbedded(root, {
      seedExtras: { extraSecretKeys: 12, revokedKey: true, moreOAuthClients: true },
      ...logs,
      ...storeOf(twins),
    }),
    twins.fastClock
      ? startEmbedded(root, { timeScale: embeddedFastTimeScale, ...logs, ...storeOf(twins) })
      : null,
    twins.dataPlane
      ? startEmbedded(root, { seedExtras: { extraSecretKeys: 4 }, ...logs, ...storeOf(twins) })
      : null,
  ]);
  const started = starts.flatMap((each) =>
    each.status === 'fulfilled' && each.value !== null ? [each.value] : [],
  );
  const release = async () => {
    await Promise.all(started.map((reference) => reference.stop()));
  };
  const [main, fast, dataPlane] = starts;
  if (
    starts.some((each) => each.status === 'rejected') ||
    main?.status !== 'fulfilled' ||
    main.value === null
  ) {
    await release();
    throw starts.find((each) => each.status === 'rejected')?.reason;
  }
  const fastReference = fast?.status === 'fulfilled' ? fast.value : null;
  const dataPlaneReference = dataPlane?.status === 'fulfilled' ? dataPlane.value : null;
  const fastClock = fastReference === null ? null : fastClockOf(fastReference);
  return {
    target: embeddedTarget(main.value.service, fastClock, profile, latency),
    dataPlane:
      dataPlaneReference === null
        ? null
        : embeddedTarget(dataPlaneReference.service, fastClock, profile, latency),
    release,
  };
}

/** Any HTTP answer will do; TLS is verified against the system's CAs and --ca-file. */
async function reachable(url: string, ca: string | null): Promise<void> {
  const transport = url.startsWith('https:') ? https : http;
  try {
    await new Promise<void>((resolve, reject) => {
      const request = transport.get(
        url,
        { timeout: 5000, ...(ca === null ? {} : { ca: [...tls.rootCertificates, ca] }) },
        (response) => {
          response.resume();
          resolve();
        },
      );
      request.on('timeout', () =>
        request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
      );
      request.on('error', reject);
    });
  } catch (error) {
    const cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(
      `cannot reach ${url} (${cause}); check --base-url or TELEMETRY_BASE_URL${url.startsWith('https:') ? ', and --ca-file for a private CA' : ''}`,
    );
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

/** A URL input with one of `schemes`, or null when not given. */
function urlOf(values: InputValues, name: 'mqtt-url' | 'ws-url', schemes: string[]): string | null {
  const text = values[name];
  if (text === undefined) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(`--${name} is not a URL: ${text}`);
  }
  if (!schemes.includes(url.protocol))
    throw new InputError(
      `--${name} must be ${schemes.map((scheme) => `${scheme}//`).join(' or ')}, not ${url.protocol}//`,
    );
  return text;
}

/** A confidential client from its three inputs; null unless all three are given. */
function clientOf(
  clientId: string | undefined,
  clientSecret: string | undefined,
  redirectUri: string | undefined,
): OAuthClientInput | null {
  return clientId && clientSecret && redirectUri ? { clientId, clientSecret, redirectUri } : null;
}

export async function resolveTarget(
  values: InputValues,
  root: string,
  ca: string | null = null,
  twins: EmbeddedTwins = { fastClock: true, dataPlane: true },
): Promise<ResolvedTarget> {
  if (values['base-url'] === undefined) return embedded(values, root, twins);
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
  await reachable(baseUrl.toString(), ca);
  const oauth = clientOf(
    values['oauth-client-id'],
    values['oauth-client-secret'],
    values['oauth-redirect-uri'],
  );
  const oauthSecondClient = clientOf(
    values['oauth-second-client-id'],
    values['oauth-second-client-secret'],
    values['oauth-second-redirect-uri'],
  );
  const publicId = values['oauth-public-client-id'];
  const publicRedirect = values['oauth-public-redirect-uri'];
  return {
    target: {
      embedded: false,
      profile: profileOf(values, false),
      baseUrl: baseUrl.toString().replace(/\/+$/, ''),
      authUrl: values['auth-url'] ?? null,
      mqttUrl: urlOf(values, 'mqtt-url', ['mqtt:', 'mqtts:']),
      wsUrl: urlOf(values, 'ws-url', ['ws:', 'wss:']),
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
      oauthSecondClient,
      oauthPublicClient:
        publicId && publicRedirect ? { clientId: publicId, redirectUri: publicRedirect } : null,
      autoApproveConsent: false,
      paidAccountId: null,
    },
    release: async () => {},
  };
}

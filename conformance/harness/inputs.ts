import type { Profile } from '../catalogue/requirement.js';

/**
 * Every input of a run: its flag, its environment variable, what it is for (`--help` prints this table), and
 * `switch` for a flag without a value (its variable is on when `1` or `true`).
 */
export const inputs = [
  [
    'base-url',
    'TELEMETRY_BASE_URL',
    '{base_url} of the deployment, ending in /v2. Without it the embedded reference is started.',
  ],
  ['auth-url', 'TELEMETRY_AUTH_URL', '{auth_url}, the authorization server (OAuth checks skip without it).'],
  [
    'mqtt-url',
    'TELEMETRY_MQTT_URL',
    '{mqtt_broker}, mqtt:// or mqtts:// (default: the broker of the mqttTopic of a stream).',
  ],
  ['ws-url', 'TELEMETRY_WS_URL', '{ws_url}, ws:// or wss:// (default: the host of the wsUrl of a stream).'],
  [
    'free-key',
    'TELEMETRY_FREE_SECRET_KEY',
    'A secret key of a free account (its rate limit is checked; it is exhausted for a minute).',
  ],
  ['paid-key', 'TELEMETRY_PAID_SECRET_KEY', 'A secret key of a paid account: most checks use it.'],
  [
    'paid-key-extras',
    'TELEMETRY_PAID_SECRET_KEY_EXTRAS',
    'More secret keys of that paid account, comma-separated: the run spreads load over them (faster).',
  ],
  ['publishable-key', 'TELEMETRY_PUBLISHABLE_KEY', 'A publishable key of the paid account.'],
  ['revoked-key', 'TELEMETRY_REVOKED_KEY', 'A revoked secret key.'],
  ['oauth-client-id', 'TELEMETRY_OAUTH_CLIENT_ID', 'An OAuth client registered on the deployment...'],
  ['oauth-client-secret', 'TELEMETRY_OAUTH_CLIENT_SECRET', '...its secret...'],
  ['oauth-redirect-uri', 'TELEMETRY_OAUTH_REDIRECT_URI', '...and one of its registered redirect URIs.'],
  [
    'oauth-second-client-id',
    'TELEMETRY_OAUTH_SECOND_CLIENT_ID',
    'A second confidential client (codes and tokens must not pass between clients)...',
  ],
  ['oauth-second-client-secret', 'TELEMETRY_OAUTH_SECOND_CLIENT_SECRET', '...its secret...'],
  [
    'oauth-second-redirect-uri',
    'TELEMETRY_OAUTH_SECOND_REDIRECT_URI',
    '...and one of its redirect URIs, not registered for the first client.',
  ],
  [
    'oauth-public-client-id',
    'TELEMETRY_OAUTH_PUBLIC_CLIENT_ID',
    'A public client (no secret, PKCE), if the deployment registers them...',
  ],
  [
    'oauth-public-redirect-uri',
    'TELEMETRY_OAUTH_PUBLIC_REDIRECT_URI',
    '...and one of its redirect URIs, not registered for the first client.',
  ],
  [
    'webhook-public-url',
    'TELEMETRY_WEBHOOK_PUBLIC_URL',
    "A URL at which the deployment reaches the suite's webhook receiver (webhook checks skip without it).",
  ],
  [
    'webhook-listen',
    'TELEMETRY_WEBHOOK_LISTEN',
    'host:port the receiver listens on, when the public URL forwards to it (default 0.0.0.0 and its port).',
  ],
  [
    'time-scale',
    'TELEMETRY_TIME_SCALE',
    "How many times faster than the wall clock the target's clock runs (default 1): retry delays, token expiry.",
  ],
  [
    'slow',
    'TELEMETRY_SLOW',
    'Wait out long schedules in real time (the first two retries at scale 1: about 6 min).',
    'switch',
  ],
  [
    'latency-p99-ms',
    'TELEMETRY_LATENCY_P99_MS',
    'The p99 publish-to-receive latency allowed at 1 kHz (default 1000; give your objective, e.g. 50).',
  ],
  [
    'ca-file',
    'TELEMETRY_CA_FILE',
    'A PEM file of CA certificates to trust besides the system ones (a deployment with a self-signed certificate): https, mqtts, wss.',
  ],
  [
    'verbose',
    'TELEMETRY_VERBOSE',
    'Let the embedded reference log warnings and delivery lines into the output (silent by default).',
    'switch',
  ],
  [
    'allow-uncovered',
    'TELEMETRY_ALLOW_UNCOVERED',
    'Exit 0 although requirements of the profile have no check (a partial target).',
    'switch',
  ],
  [
    'bail',
    'TELEMETRY_BAIL',
    'Stop at the first failed check and exit 1 (mutation testing); the reports then hold only what ran.',
    'switch',
  ],
  [
    'profile',
    'TELEMETRY_PROFILE',
    '`documented` (what the interface document states; default for a deployment) or `full` (adds what the spec inferred; default for the embedded reference).',
  ],
  [
    'report-dir',
    'TELEMETRY_REPORT_DIR',
    'Where report.json, junit.xml and report.html go (default conformance-report).',
  ],
] as const;

export type InputName = (typeof inputs)[number][0];
export type InputValues = Partial<Record<InputName, string>>;

/** Inputs that are switches: given or not. */
export const switches: ReadonlySet<string> = new Set(
  inputs.filter((input) => (input as readonly string[])[3] === 'switch').map(([flag]) => flag),
);

export function isOn(values: InputValues, name: InputName): boolean {
  const value = values[name];
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

/** A positive number input, or its default. */
export function numberOf(values: InputValues, name: InputName, fallback: number): number {
  const text = values[name];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new InputError(`--${name} must be a positive number, not "${text}"`);
  return value;
}

/** `host:port` (port 0 takes a free one); `[::1]:8080` for IPv6. */
export function hostAndPort(values: InputValues, name: InputName): { host: string; port: number } | null {
  const text = values[name];
  if (text === undefined) return null;
  const match = /^\[?([^\]]*?)\]?:(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null || match[1] === '' || port > 65535)
    throw new InputError(`--${name} must be host:port, not "${text}"`);
  return { host: match[1] as string, port };
}

/** Flags win over environment variables. */
export function readInputs(
  flags: Record<string, string | undefined>,
  environment: NodeJS.ProcessEnv,
): InputValues {
  const values: InputValues = {};
  for (const [flag, variable] of inputs) {
    const value = flags[flag] ?? environment[variable];
    if (value !== undefined && value !== '') values[flag] = value;
  }
  return values;
}

export function profileOf(values: InputValues, embedded: boolean): Profile {
  const profile = values.profile ?? (embedded ? 'full' : 'documented');
  if (profile !== 'documented' && profile !== 'full')
    throw new InputError(`--profile must be documented or full, not "${profile}"`);
  return profile;
}

export function helpText(): string {
  const rows = inputs.map(
    ([flag, variable, text]) => `  --${flag.padEnd(20)} ${variable.padEnd(34)} ${text}`,
  );
  return [
    'npm run conformance [-- options]',
    'Checks a deployment of the Telemetry Streaming Service against every requirement of the spec. With no',
    '--base-url it starts the embedded reference on free ports with a fresh data directory and checks that.',
    '',
    ...rows,
    '',
    'Exit code 0 only when no requirement failed and every requirement of the profile has a check (see',
    '--allow-uncovered). The last line reads "N passed, N failed, N skipped, N not covered".',
  ].join('\n');
}

/** A bad input: reported as one line, no stack. */
export class InputError extends Error {
  override name = 'InputError';
}

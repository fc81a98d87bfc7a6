import type { Profile } from '../catalogue/requirement.js';

/** Every input of a run: its flag, its environment variable, and what it is for (`--help` prints this table). */
export const inputs = [
  [
    'base-url',
    'TELEMETRY_BASE_URL',
    '{base_url} of the deployment, ending in /v2. Without it the embedded reference is started.',
  ],
  ['auth-url', 'TELEMETRY_AUTH_URL', '{auth_url}, the authorization server (OAuth checks skip without it).'],
  ['mqtt-url', 'TELEMETRY_MQTT_URL', '{mqtt_broker} (MQTT checks skip without it).'],
  ['ws-url', 'TELEMETRY_WS_URL', '{ws_url} (WebSocket checks skip without it).'],
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
    'webhook-public-url',
    'TELEMETRY_WEBHOOK_PUBLIC_URL',
    "A URL at which the deployment reaches the suite's webhook receiver.",
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
    'Exit code 0 only when no requirement failed. The last line reads "N passed, N failed, N skipped".',
  ].join('\n');
}

/** A bad input: reported as one line, no stack. */
export class InputError extends Error {
  override name = 'InputError';
}

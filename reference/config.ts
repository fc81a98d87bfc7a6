import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.js';
import type { StartOptions } from './start.js';

/**
 * `npm start` settings: a JSON config file (`--config`, or `telemetry.config.json` when present), then `TELEMETRY_*`
 * environment variables, which win. Every option of `start()` has one of each.
 */
export const environmentVariables: Record<string, keyof StartOptions> = {
  TELEMETRY_DATA_DIR: 'dataDir',
  TELEMETRY_POSTGRES_URL: 'postgresUrl',
  TELEMETRY_HOST: 'host',
  TELEMETRY_API_PORT: 'apiPort',
  TELEMETRY_AUTH_PORT: 'authPort',
  TELEMETRY_MQTT_PORT: 'mqttPort',
  TELEMETRY_TIME_SCALE: 'timeScale',
  TELEMETRY_DEFAULT_REGION: 'defaultRegion',
  TELEMETRY_AUTO_APPROVE_CONSENT: 'autoApproveConsent',
  TELEMETRY_OAUTH_REDIRECT_URI: 'oauthRedirectUri',
  TELEMETRY_WEBHOOK_ALLOW_PRIVATE: 'allowPrivateWebhookTargets',
  TELEMETRY_TRUST_PROXY: 'trustProxy',
  TELEMETRY_ADDRESS_LIMIT: 'addressRequestsPerWindow',
  TELEMETRY_LOG_LEVEL: 'logLevel',
  TELEMETRY_CORS_ORIGINS: 'corsOrigins',
  TELEMETRY_REDIS_URL: 'redisUrl',
  TELEMETRY_NODE_ID: 'nodeId',
  TELEMETRY_DEVICE_LEASE_MILLISECONDS: 'deviceLeaseMilliseconds',
  TELEMETRY_KEY_CACHE_MILLISECONDS: 'keyCacheMilliseconds',
};
const booleans = new Set<keyof StartOptions>(['autoApproveConsent', 'allowPrivateWebhookTargets']);
const numeric = new Set<keyof StartOptions>([
  'apiPort',
  'authPort',
  'mqttPort',
  'timeScale',
  'addressRequestsPerWindow',
  'deviceLeaseMilliseconds',
  'keyCacheMilliseconds',
]);

/** `true`, `false`, a hop count, or addresses and CIDRs separated by commas, as Fastify's trustProxy takes them. */
function trustProxyOf(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^[0-9]+$/.test(value) ? Number(value) : value;
}

function fromEnvironment(variables: NodeJS.ProcessEnv): Partial<StartOptions> {
  const options: Record<string, unknown> = {};
  for (const [variable, option] of Object.entries(environmentVariables)) {
    const value = variables[variable];
    if (value === undefined || value === '') continue;
    if (numeric.has(option)) {
      const number = Number(value);
      if (!Number.isFinite(number)) throw new ConfigError(`${variable} must be a number, got "${value}"`);
      options[option] = number;
    } else if (option === 'trustProxy') options[option] = trustProxyOf(value);
    else if (option === 'corsOrigins') options[option] = value.split(',').map((origin) => origin.trim());
    else options[option] = booleans.has(option) ? value === 'true' : value;
  }
  return options as Partial<StartOptions>;
}

/** What `npm start` may set: everything but the test-only faults of reference/faults.ts. */
export type ConfiguredStartOptions = Omit<StartOptions, 'faults'>;

export function loadStartOptions(
  configFile: string | undefined,
  variables: NodeJS.ProcessEnv,
  cwd: string,
): ConfiguredStartOptions {
  const file = path.resolve(cwd, configFile ?? 'telemetry.config.json');
  let fromFile: Partial<StartOptions> = {};
  try {
    fromFile = JSON.parse(readFileSync(file, 'utf8')) as Partial<StartOptions>;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (!missing || configFile !== undefined)
      throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const merged = {
    dataDir: '.telemetry-data',
    logLevel: 'info' as const,
    ...fromFile,
    ...fromEnvironment(variables),
  };
  // Broken variants are for the conformance harness's own tests: a config file cannot switch them on.
  const { faults: _ignored, ...configured } = merged as StartOptions;
  return { ...configured, dataDir: path.resolve(cwd, merged.dataDir) };
}

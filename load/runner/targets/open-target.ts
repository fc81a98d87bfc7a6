import type { ResolvedScenario } from '../resolve-scenario.js';
import { brokerTarget } from './broker-target.js';
import { startEmbedded } from './embedded.js';
import { startMosquitto } from './mosquitto.js';
import { serviceTarget } from './service-target.js';
import { type Target, TargetError } from './target.js';
import type { TargetInputValues } from './target-inputs.js';

// Keys of the embedded reference that only create streams and tokens, spread so setup never meets a rate limit.
const embeddedSetupKeys = 8;

async function embeddedTarget(resolved: ResolvedScenario): Promise<Target> {
  const restKeys = resolved.rest?.section.keys ?? 0;
  if (resolved.rest?.section.plan === 'free' && restKeys > 1)
    throw new TargetError('the embedded reference seeds one free key; use the paid plan or a deployment');
  const reference = await startEmbedded(restKeys + embeddedSetupKeys);
  const { free, paid } = reference.seeded.accounts;
  const extras = reference.seeded.extraSecretKeys;
  return serviceTarget(
    `embedded reference ${reference.urls.baseUrl}`,
    reference.urls.baseUrl,
    {
      setup: [paid.keys.secret.key, ...extras.slice(restKeys)],
      load: { paid: extras.slice(0, restKeys), free: [free.keys.secret.key] },
    },
    { memory: () => reference.memory(), shedding: () => reference.shedding() },
    () => reference.stop(),
  );
}

function deploymentTarget(baseUrl: string, inputs: TargetInputValues): Target {
  if (inputs['paid-key'] === undefined)
    throw new TargetError(
      '--paid-key (TELEMETRY_PAID_SECRET_KEY) is needed with a deployment: it creates the streams',
    );
  const extras = (inputs['paid-key-extras'] ?? '').split(',').filter((key) => key !== '');
  return serviceTarget(
    baseUrl,
    baseUrl.replace(/\/+$/, ''),
    {
      setup: [inputs['paid-key']],
      load: { paid: extras, free: inputs['free-key'] === undefined ? [] : [inputs['free-key']] },
    },
    { memory: null, shedding: null },
    async () => {},
  );
}

/**
 * `--target`: `embedded` (the default), `mosquitto` (Debian's broker on a free port, started here), an `mqtt://` URL
 * (any bare broker) or an `http(s)://` base URL (a deployment; `--base-url` says the same).
 */
export async function openTarget(
  target: string | undefined,
  inputs: TargetInputValues,
  resolved: ResolvedScenario,
): Promise<Target> {
  const chosen = target ?? inputs['base-url'] ?? 'embedded';
  if (chosen === 'embedded') return embeddedTarget(resolved);
  if (chosen === 'mosquitto') {
    const broker = await startMosquitto().catch((error: Error) => {
      throw new TargetError(error.message);
    });
    return brokerTarget(broker.url, `mosquitto ${broker.url}`, () => broker.stop());
  }
  if (/^mqtts?:\/\//.test(chosen)) return brokerTarget(chosen, `broker ${chosen}`, async () => {});
  if (/^https?:\/\//.test(chosen)) return deploymentTarget(chosen, inputs);
  throw new TargetError(
    `--target must be embedded, mosquitto, an mqtt:// URL or an http(s):// base URL, not "${chosen}"`,
  );
}

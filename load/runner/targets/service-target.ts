import { type Client, createClient } from '../../../generated/client/index.js';
import { deviceTelemetryAddress, liveFeedAddress } from '../../../generated/messages/index.js';
import type { ResolvedScenario } from '../resolve-scenario.js';
import type { Device, Subscription } from '../workers/protocol.js';
import { type Target, TargetError, type TargetProbes } from './target.js';

export interface ServiceKeys {
  /** Keys that create streams and tokens (spread round robin, so setup stays inside each key's window). */
  setup: string[];
  /** Keys with untouched windows for the REST load, by plan. */
  load: Record<'free' | 'paid', string[]>;
}

/** `mqtt://host:port/devices/stm_x` → `mqtt://host:port`: the broker part before the channel's address. */
export function withoutSuffix(url: string, suffix: string): string {
  const normalised = suffix.startsWith('/') ? suffix : `/${suffix}`;
  if (!url.endsWith(normalised)) throw new TargetError(`${url} does not end in ${normalised}`);
  return url.slice(0, -normalised.length);
}

/** A deployment of the service (or the embedded reference): streams and tokens come from its REST API. */
export function serviceTarget(
  label: string,
  baseUrl: string,
  keys: ServiceKeys,
  probes: TargetProbes,
  release: () => Promise<void>,
): Target {
  const clients: Client[] = keys.setup.map((apiKey) => createClient({ baseUrl, apiKey }));
  let turn = 0;
  const client = () => clients[turn++ % clients.length] as Client;
  return {
    label,
    restBaseUrl: baseUrl,
    async provisionIngest(resolved: ResolvedScenario) {
      const ingest = resolved.ingest;
      const devices: Device[] = [];
      const subscriptions: Subscription[] = [];
      if (ingest === null) return { devices, subscriptions };
      for (let index = 0; index < ingest.section.streams; index += 1) {
        const stream = await client().streams.create({
          title: `load ${resolved.scenario.name} ${index}`,
          quality: ingest.section.quality,
          format: ingest.format,
        });
        const brokerUrl = withoutSuffix(stream.mqttTopic, deviceTelemetryAddress({ streamId: stream.id }));
        devices.push({ streamId: stream.id, brokerUrl, username: stream.id, password: stream.streamKey });
        for (let subscriber = 0; subscriber < ingest.section.subscribersPerStream; subscriber += 1) {
          const token = await client().subscriberTokens.create(stream.id, {});
          const wsBase = withoutSuffix(token.wsUrl, liveFeedAddress({ streamId: stream.id }));
          subscriptions.push({ kind: 'ws', streamId: stream.id, baseUrl: wsBase, token: token.token });
        }
      }
      return { devices, subscriptions };
    },
    async provisionRest(resolved: ResolvedScenario) {
      const rest = resolved.rest;
      if (rest === null) throw new Error('the scenario has no rest section');
      const available = keys.load[rest.section.plan];
      if (available.length < rest.section.keys)
        throw new TargetError(
          `the scenario needs ${rest.section.keys} fresh ${rest.section.plan} keys; the target has ${available.length} ` +
            `(give more with ${rest.section.plan === 'paid' ? '--paid-key-extras' : '--free-key'})`,
        );
      const stream = await client().streams.create({ title: `load ${resolved.scenario.name} fixture` });
      const report = await client().reports.create({ title: `load ${resolved.scenario.name} fixture` });
      return {
        keys: available.slice(0, rest.section.keys),
        fixtures: { streamId: stream.id, reportId: report.id },
      };
    },
    ...probes,
    release,
  };
}

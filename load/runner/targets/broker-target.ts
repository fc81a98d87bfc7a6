import { randomBytes } from 'node:crypto';
import { deviceTelemetryAddress } from '../../../generated/messages/index.js';
import type { Device, Subscription } from '../workers/protocol.js';
import { type Target, TargetError } from './target.js';

/**
 * A bare MQTT broker (Mosquitto, or any at a URL): devices publish to `devices/<stream id>` without credentials and
 * MQTT subscribers stand in for the WebSocket ones. The side-by-side baseline for the reference's data plane.
 */
export function brokerTarget(brokerUrl: string, label: string, release: () => Promise<void>): Target {
  const run = randomBytes(4).toString('hex');
  return {
    label,
    restBaseUrl: null,
    async provisionIngest(resolved) {
      const ingest = resolved.ingest;
      if (ingest === null) return { devices: [], subscriptions: [] };
      const devices: Device[] = [];
      const subscriptions: Subscription[] = [];
      for (let index = 0; index < ingest.section.streams; index += 1) {
        const streamId = `stm_load${run}${index}`;
        devices.push({ streamId, brokerUrl });
        const topic = deviceTelemetryAddress({ streamId });
        for (let subscriber = 0; subscriber < ingest.section.subscribersPerStream; subscriber += 1)
          subscriptions.push({ kind: 'mqtt', streamId, brokerUrl, topic });
      }
      return { devices, subscriptions };
    },
    async provisionRest() {
      throw new TargetError(
        `${label} is a bare MQTT broker: it has no REST API for the scenario's rest section`,
      );
    },
    memory: null,
    shedding: null,
    release,
  };
}

// The device side of the data-plane benchmarks: N devices on the generated publisher, each paced at a fixed rate by
// one timer loop, every sample carrying its index and send time so a counter anywhere can measure loss, order and
// latency. Used by bench/ingest.ts (MQTT → bus) and meant for the MQTT → WebSocket benchmark.
import { createDeviceTelemetryPublisher } from '../../generated/messages/device-telemetry.js';
import type { MqttPublisher } from '../../runtime/mqtt-publisher.js';

export interface Device {
  streamId: string;
  username: string;
  password: string;
}

export interface DriveOptions {
  rateHz: number;
  /** When sending starts (`wallNow()`); the counters must use the same window. Now when absent. */
  startAt?: number;
  warmupMilliseconds: number;
  measureMilliseconds: number;
}

export interface DriveResult {
  /** Wall-clock window (`wallNow()`) whose samples count. */
  windowStart: number;
  windowEnd: number;
  sentInWindow: number;
  sentTotal: number;
  publishErrors: number;
}

type Publisher = MqttPublisher<{ telemetryJson: { ts: number; values: Record<string, number> } }>;

/** Wall time in milliseconds with sub-millisecond resolution, comparable across processes of one machine. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

export async function connectDevices(url: string, devices: readonly Device[], protocolVersion: 4 | 5 = 4) {
  const publishers: Publisher[] = [];
  for (const device of devices) {
    publishers.push(
      (await createDeviceTelemetryPublisher({
        url,
        parameters: { streamId: device.streamId },
        username: device.username,
        password: device.password,
        protocolVersion,
      })) as unknown as Publisher,
    );
  }
  return publishers;
}

/**
 * Sends `rateHz` samples per second per device for warm-up + measurement: every tick, each device sends every sample
 * that is due (a device whose timer was late catches up, as a real one with a buffer would). QoS 0.
 */
export async function drive(publishers: readonly Publisher[], options: DriveOptions): Promise<DriveResult> {
  const started = options.startAt ?? wallNow();
  const windowStart = started + options.warmupMilliseconds;
  const windowEnd = windowStart + options.measureMilliseconds;
  const sent = publishers.map(() => 0);
  const result = { windowStart, windowEnd, sentInWindow: 0, sentTotal: 0, publishErrors: 0 };
  const onError = () => {
    result.publishErrors += 1;
  };
  for (;;) {
    const now = wallNow();
    if (now >= windowEnd) break;
    const due = Math.floor(((now - started) * options.rateHz) / 1000) + 1;
    publishers.forEach((publisher, index) => {
      for (let n = sent[index] ?? 0; n < due; n += 1) {
        const sentAt = wallNow();
        publisher.publish('telemetryJson', { ts: Math.floor(sentAt), values: { n, sentAt } }).catch(onError);
        result.sentTotal += 1;
        if (sentAt >= windowStart && sentAt < windowEnd) result.sentInWindow += 1;
      }
      sent[index] = Math.max(sent[index] ?? 0, due);
    });
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return result;
}

export async function disconnect(publishers: readonly Publisher[]): Promise<void> {
  await Promise.allSettled(publishers.map((publisher) => publisher.close()));
}

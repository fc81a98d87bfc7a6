import {
  deviceTelemetryAddress,
  deviceTelemetryEncodersByFormat,
  liveFeedAddress,
} from '../../../generated/messages/index.js';
import type { Format, Quality, TelemetrySample } from '../../../generated/types/schemas.js';
import { type CheckContext, expectThat } from '../../harness/check.js';
import { connectDevice, type MqttDevice } from '../../harness/mqtt-device.js';
import { type Exchange, send } from '../../harness/probe.js';
import { currentTarget } from '../../harness/target.js';
import { type HandshakeRefusal, isRefusal, type Subscriber, subscribe } from '../../harness/ws-subscriber.js';

/** Which reference a data-plane check talks to: the target, or the embedded default's fast-clock twin. */
export type Clock = 'target' | 'fast';

export interface StreamUnderTest {
  id: string;
  streamKey: string;
  mqttTopic: string;
  wsUrl: string;
  title: string;
  clock: Clock;
  created: Exchange;
}

const server = (clock: Clock) => (clock === 'fast' ? ('fast' as const) : ('api' as const));

let streamCount = 0;

/** A stream created for a check, with its ingest key. */
export async function createStream(
  options: { quality?: Quality; format?: Format; clock?: Clock; recordingReportId?: string } = {},
): Promise<StreamUnderTest> {
  const clock = options.clock ?? 'target';
  streamCount += 1;
  const title = `conformance data plane ${streamCount}`;
  const body = {
    title,
    ...(options.quality === undefined ? {} : { quality: options.quality }),
    ...(options.format === undefined ? {} : { format: options.format }),
    ...(options.recordingReportId === undefined ? {} : { recordingReportId: options.recordingReportId }),
  };
  const created = await send('POST', '/streams', { body, server: server(clock) });
  expectThat(created.response.status === 201, 'status 201 for POST /streams', created);
  const stream = created.response.body as Record<string, unknown>;
  return {
    id: String(stream.id),
    streamKey: String(stream.streamKey),
    mqttTopic: String(stream.mqttTopic),
    wsUrl: String(stream.wsUrl),
    title,
    clock,
    created,
  };
}

export async function deleteStream(stream: StreamUnderTest): Promise<Exchange> {
  return send('DELETE', `/streams/${stream.id}`, { server: server(stream.clock) });
}

export async function getStream(stream: StreamUnderTest): Promise<Record<string, unknown>> {
  const exchange = await send('GET', `/streams/${stream.id}`, { server: server(stream.clock) });
  expectThat(exchange.response.status === 200, 'status 200 for GET /streams/{streamId}', exchange);
  return exchange.response.body as Record<string, unknown>;
}

/** `{mqtt_broker}`: --mqtt-url, else the broker part of the stream's mqttTopic. */
export function brokerUrl(stream: StreamUnderTest): string {
  const fast = stream.clock === 'fast' ? currentTarget().fastClock : null;
  const given = fast === null ? currentTarget().mqttUrl : fast.mqttUrl;
  if (given !== null) return given;
  const topic = deviceTelemetryAddress({ streamId: stream.id });
  return stream.mqttTopic.endsWith(`/${topic}`)
    ? stream.mqttTopic.slice(0, -topic.length - 1)
    : stream.mqttTopic;
}

export const topicOf = (streamId: string) => deviceTelemetryAddress({ streamId });

/** Connects as the stream's device (username the stream id, password its streamKey), or with other credentials. */
export function connectAs(
  stream: StreamUnderTest,
  credentials: { username?: string; password?: string; protocolVersion?: 4 | 5 } = {},
): Promise<MqttDevice> {
  return connectDevice({
    url: brokerUrl(stream),
    username: credentials.username ?? stream.id,
    password: credentials.password ?? stream.streamKey,
    ...(credentials.protocolVersion === undefined ? {} : { protocolVersion: credentials.protocolVersion }),
  });
}

export async function subscriberToken(stream: StreamUnderTest, expiresIn?: number): Promise<string> {
  const exchange = await send('POST', `/streams/${stream.id}/subscriber_tokens`, {
    body: expiresIn === undefined ? {} : { expiresIn },
    server: server(stream.clock),
  });
  expectThat(exchange.response.status === 201, 'status 201 for a subscriber token', exchange);
  return String((exchange.response.body as { token: unknown }).token);
}

/** The live feed URL: --ws-url and the channel address, else the stream's wsUrl; with the token when given. */
export function liveUrl(stream: StreamUnderTest, token: string | null, streamId = stream.id): string {
  const fast = stream.clock === 'fast' ? currentTarget().fastClock : null;
  const given = fast === null ? currentTarget().wsUrl : fast.wsUrl;
  const base =
    given === null
      ? stream.wsUrl.replace(stream.id, streamId)
      : `${given.replace(/\/+$/, '')}${liveFeedAddress({ streamId })}`;
  return token === null ? base : `${base}?token=${encodeURIComponent(token)}`;
}

/** Subscribes with a fresh token; fails the check when the upgrade is refused. */
export async function subscribeTo(stream: StreamUnderTest, expiresIn?: number): Promise<Subscriber> {
  const token = await subscriberToken(stream, expiresIn);
  const result: Subscriber | HandshakeRefusal = await subscribe(liveUrl(stream, token));
  expectThat(!isRefusal(result), `the live feed to accept a fresh token, not ${JSON.stringify(result)}`);
  return result as Subscriber;
}

/** Polls until `condition` holds or `timeoutMs` passes; returns whether it held. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 20) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

export const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** The longest wall-clock wait a check of the target's clock allows itself without --slow. */
const quickClockWaitMilliseconds = 5000;

/**
 * The wall time that `seconds` of the target's clock take at `scale`; ends the check as skipped when that is longer
 * than a quick wait and --slow is not given.
 */
export function clockWaitOrSkip(context: CheckContext, seconds: number, scale: number): number {
  const wallMs = (seconds * 1000) / scale;
  if (wallMs > quickClockWaitMilliseconds && !currentTarget().slow)
    context.skip(
      `${seconds} s of the target's clock is ${Math.round(wallMs / 1000)} s of wall time at scale ${scale}; give --time-scale of a fast clock, or --slow`,
    );
  return wallMs;
}

/** The n-th sample of a run: its value carries n, so loss, order and duplicates show in what arrives. */
export function sampleOf(index: number, channels = 1): TelemetrySample {
  const values: Record<string, number> = { seq_check: index };
  for (let channel = 1; channel < channels; channel++) values[`channel_${channel}`] = channel + index / 1000;
  return { ts: Date.now(), values };
}

export function encodeSample(format: Format, sample: TelemetrySample): Buffer {
  const encoded: unknown = deviceTelemetryEncodersByFormat[format](sample);
  return typeof encoded === 'string' ? Buffer.from(encoded, 'utf8') : Buffer.from(encoded as Uint8Array);
}

/** Telemetry messages of the subscriber's frames, in arrival order. */
export function telemetryOf(subscriber: Subscriber): Array<Record<string, unknown>> {
  return subscriber
    .messages()
    .filter(
      (message): message is Record<string, unknown> => (message as { type?: unknown }).type === 'telemetry',
    );
}

/** The subscriberCount of each status message a subscriber received, in order. */
export function statusCountsOf(subscriber: Subscriber): unknown[] {
  return (subscriber.messages() as Array<Record<string, unknown>>)
    .filter((message) => message.type === 'status')
    .map((message) => message.subscriberCount);
}

/** The sample index a telemetry message carries (see sampleOf). */
export const indexOf = (message: Record<string, unknown>) =>
  (message.sample as { values?: { seq_check?: number } } | undefined)?.values?.seq_check;

import { connectAsync, type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { deviceTelemetryAddress } from '../../../generated/messages/device-telemetry.js';
import type { LiveMessage } from '../../fanout/fanout-bus.js';
import { liveFeedUrl } from '../../services/urls.js';
import type { ClusterNode } from './two-nodes.js';

/** A stream of the paid account, created through `node`: its id and device password. */
export async function createStream(
  node: ClusterNode,
  quality = 'high',
): Promise<{ id: string; streamKey: string }> {
  const created = await node.api('POST', '/streams', { title: 'scale-out', quality });
  if (created.status !== 201) throw new Error(`stream not created: ${JSON.stringify(created.body)}`);
  return created.body;
}

/** A device of `stream` on `node`'s MQTT port (MQTT 5, no automatic reconnect); rejects when refused. */
export async function connectDevice(
  node: ClusterNode,
  stream: { id: string; streamKey: string },
): Promise<MqttClient> {
  const client = await connectAsync(node.service.urls.mqttBroker, {
    username: stream.id,
    password: stream.streamKey,
    protocolVersion: 5,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
  });
  (client.stream as unknown as { setNoDelay?: (noDelay: boolean) => void }).setNoDelay?.(true);
  return client;
}

export const topicOf = (streamId: string) => deviceTelemetryAddress({ streamId });

export interface Feed {
  messages: LiveMessage[];
  telemetry(): Extract<LiveMessage, { type: 'telemetry' }>[];
  /** The close code the subscriber got, once its socket closed. */
  closed: Promise<number>;
  close(): void;
}

/** A live-feed subscriber of `streamId` on `node`, keeping every message of every frame in arrival order. */
export async function openFeed(node: ClusterNode, streamId: string): Promise<Feed> {
  const token = await node.api('POST', `/streams/${streamId}/subscriber_tokens`, {});
  if (token.status !== 201) throw new Error(`no subscriber token: ${JSON.stringify(token.body)}`);
  const url = `${liveFeedUrl(node.service.urls, streamId)}?token=${encodeURIComponent(token.body.token)}`;
  const socket = new WebSocket(url, { perMessageDeflate: false });
  const messages: LiveMessage[] = [];
  const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)));
  socket.on('message', (data: Buffer) =>
    messages.push(...(JSON.parse(data.toString('utf8')) as LiveMessage[])),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    messages,
    telemetry: () => messages.filter((message) => message.type === 'telemetry'),
    closed,
    close: () => socket.close(),
  };
}

export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

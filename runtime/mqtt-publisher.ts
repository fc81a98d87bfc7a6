import { connectAsync, type IClientOptions, type IClientPublishOptions, type MqttClient } from 'mqtt';
import type { AddressTemplate } from './address-template.js';
import type { Codec } from './codecs/codec.js';

/** A channel as the generated code binds it: its topic template and one encoder per message id. */
export interface MqttChannel<Parameters, Payloads> {
  readonly address: AddressTemplate<Parameters>;
  readonly codecs: {
    readonly [MessageId in keyof Payloads]: Pick<Codec<Payloads[MessageId]>, 'contentType' | 'encode'>;
  };
}

export interface MqttPublisherOptions<Parameters> {
  /** Broker URL: `mqtt://`, `mqtts://`, `ws://` or `wss://`. */
  url: string;
  /** The channel parameters of the one topic this publisher sends to. */
  parameters: Parameters;
  username?: string;
  password?: string;
  clientId?: string;
  protocolVersion?: 4 | 5;
  connectTimeoutMs?: number;
  /** Milliseconds between reconnection attempts; 0, the default, never reconnects so that a lost broker shows. */
  reconnectPeriodMs?: number;
  /** Errors after the connection is up (keepalive timeout, broker gone); each publish() rejects on its own. */
  onError?: (error: Error) => void;
}

export interface PublishOptions {
  qos?: 0 | 1 | 2;
  retain?: boolean;
}

export interface MqttPublisher<Payloads> {
  readonly topic: string;
  readonly connected: boolean;
  /** Resolves once written (QoS 0) or acknowledged (QoS 1 and 2). */
  publish<MessageId extends keyof Payloads & string>(
    messageId: MessageId,
    payload: Payloads[MessageId],
    options?: PublishOptions,
  ): Promise<void>;
  close(): Promise<void>;
}

// Nagle's algorithm holds small packets back for tens of milliseconds; the mqtt client has no option for it.
function disableNagle(client: MqttClient): void {
  const stream: unknown = client.stream;
  if (stream !== null && typeof stream === 'object' && 'setNoDelay' in stream) {
    (stream as { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
  }
}

function clientOptions<Parameters>(options: MqttPublisherOptions<Parameters>): IClientOptions {
  return {
    reconnectPeriod: options.reconnectPeriodMs ?? 0,
    ...(options.username === undefined ? {} : { username: options.username }),
    ...(options.password === undefined ? {} : { password: options.password }),
    ...(options.clientId === undefined ? {} : { clientId: options.clientId }),
    ...(options.protocolVersion === undefined ? {} : { protocolVersion: options.protocolVersion }),
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeout: options.connectTimeoutMs }),
  };
}

/** Connects (rejecting when the broker refuses or cannot be reached) and returns a publisher typed by the channel. */
export async function createMqttPublisher<Parameters, Payloads>(
  channel: MqttChannel<Parameters, Payloads>,
  options: MqttPublisherOptions<Parameters>,
): Promise<MqttPublisher<Payloads>> {
  const topic = channel.address.build(options.parameters);
  const reconnects = (options.reconnectPeriodMs ?? 0) > 0;
  const client = await connectAsync(options.url, clientOptions(options), reconnects);
  disableNagle(client);
  client.on('connect', () => disableNagle(client));
  client.on('error', (error) => options.onError?.(error));
  return {
    topic,
    get connected() {
      return client.connected;
    },
    async publish(messageId, payload, publishOptions = {}) {
      // Without reconnection the client would queue the message for a connection that never comes back.
      if (!client.connected && !reconnects) throw new Error(`not connected to ${options.url}`);
      const codec = channel.codecs[messageId];
      const encoded = codec.encode(payload);
      const body =
        typeof encoded === 'string'
          ? encoded
          : Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
      const packetOptions: IClientPublishOptions = {
        qos: publishOptions.qos ?? 0,
        retain: publishOptions.retain ?? false,
        // MQTT 5 carries the content type with each message; 3.1.1 has no field for it.
        ...(client.options.protocolVersion === 5 ? { properties: { contentType: codec.contentType } } : {}),
      };
      await client.publishAsync(topic, body, packetOptions);
    },
    close: () => client.endAsync(),
  };
}

import { connect, type Socket } from 'node:net';
import {
  parser as createParser,
  generate,
  type IConnectPacket,
  type IPublishPacket,
  type Packet,
} from 'mqtt-packet';
import { deviceTelemetryAddress } from '../../../generated/messages/device-telemetry.js';

/**
 * A device on a bare socket: sends exactly the bytes a test gives it and records every packet the server answers,
 * so a test can send what no well-behaved client would (garbage, QoS 2, a 1 MB password) and see the reply.
 */
export interface RawDevice {
  socket: Socket;
  version: 4 | 5;
  received: Packet[];
  send(packet: Packet | Buffer): void;
  /** The next packet the server sends that satisfies `match`. */
  next(match?: (packet: Packet) => boolean, milliseconds?: number): Promise<Packet>;
  /** Resolves when the server closed the connection; rejects after `milliseconds`. */
  closed(milliseconds?: number): Promise<void>;
  isClosed(): boolean;
  end(): void;
}

export async function rawDevice(port: number, version: 4 | 5 = 4): Promise<RawDevice> {
  const socket = connect({ host: '127.0.0.1', port, noDelay: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const parser = createParser({ protocolVersion: version });
  const received: Packet[] = [];
  const waiters = new Set<() => void>();
  let isClosed = false;
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  parser.on('packet', (packet: Packet) => {
    received.push(packet);
    wake();
  });
  socket.on('data', (chunk: Buffer) => parser.parse(chunk));
  socket.on('error', () => {});
  socket.on('close', () => {
    isClosed = true;
    wake();
  });
  const waitFor = <T>(found: () => T | undefined, what: string, milliseconds: number) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `no ${what} within ${milliseconds} ms (received ${JSON.stringify(received.map((p) => p.cmd))})`,
          ),
        );
      }, milliseconds);
      waiters.add(check);
      check();
    });
  let consumed = 0;
  return {
    socket,
    version,
    received,
    send: (packet) =>
      socket.write(Buffer.isBuffer(packet) ? packet : generate(packet, { protocolVersion: version })),
    next: (match = () => true, milliseconds = 5000) =>
      waitFor(
        () => {
          const index = received.findIndex((packet, position) => position >= consumed && match(packet));
          if (index === -1) return undefined;
          consumed = index + 1;
          return received[index];
        },
        'matching packet',
        milliseconds,
      ),
    closed: (milliseconds = 5000) =>
      waitFor(() => (isClosed ? true : undefined), 'close', milliseconds).then(() => {}),
    isClosed: () => isClosed,
    end: () => socket.destroy(),
  };
}

/** A CONNECT of a stream's device; `overrides` change any field (a wrong password, keep-alive). */
export function connectPacket(
  credentials: { id: string; key: string },
  version: 4 | 5,
  overrides: Partial<IConnectPacket> = {},
): IConnectPacket {
  return {
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion: version,
    clean: true,
    clientId: `device-${credentials.id}`,
    keepalive: 60,
    username: credentials.id,
    password: Buffer.from(credentials.key),
    ...overrides,
  };
}

/** Connects and waits for the CONNACK, which the test then inspects. */
export async function connectedDevice(
  port: number,
  credentials: { id: string; key: string },
  version: 4 | 5 = 4,
  overrides: Partial<IConnectPacket> = {},
): Promise<{ device: RawDevice; connack: Packet }> {
  const device = await rawDevice(port, version);
  device.send(connectPacket(credentials, version, overrides));
  const connack = await device.next((packet) => packet.cmd === 'connack');
  return { device, connack };
}

/** A QoS 1 PUBLISH of one JSON sample to the stream's own topic; `overrides` change any field. */
export function samplePublish(streamId: string, overrides: Partial<IPublishPacket> = {}): IPublishPacket {
  return {
    cmd: 'publish',
    topic: deviceTelemetryAddress({ streamId }),
    payload: JSON.stringify({ ts: 1, values: { rpm: 1 } }),
    qos: 1,
    messageId: 1,
    dup: false,
    retain: false,
    ...overrides,
  };
}

/** MQTT's variable byte integer (a remaining length). */
function variableByteInteger(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    const byte = rest % 128;
    rest = Math.floor(rest / 128);
    bytes.push(rest > 0 ? byte | 0x80 : byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}

/**
 * A sample PUBLISH written byte by byte, for what mqtt-packet will not write: any topic bytes (empty, a wildcard,
 * U+0000, bytes that are not UTF-8), QoS 3, a packet identifier of 0, any property bytes. MQTT 5 gets `properties`
 * (none by default).
 */
export function publishBytes(
  topic: Buffer | string,
  version: 4 | 5,
  {
    qos = 1,
    messageId = 1,
    properties = Buffer.alloc(0),
    payload = JSON.stringify({ ts: 1, values: { rpm: 1 } }),
  }: { qos?: number; messageId?: number; properties?: Buffer; payload?: Buffer | string } = {},
): Buffer {
  const topicBytes = Buffer.isBuffer(topic) ? topic : Buffer.from(topic);
  const body = Buffer.concat([
    Buffer.from([topicBytes.length >> 8, topicBytes.length & 0xff]),
    topicBytes,
    qos > 0 ? Buffer.from([messageId >> 8, messageId & 0xff]) : Buffer.alloc(0),
    version === 5 ? Buffer.concat([variableByteInteger(properties.length), properties]) : Buffer.alloc(0),
    Buffer.isBuffer(payload) ? payload : Buffer.from(payload),
  ]);
  return Buffer.concat([Buffer.from([0x30 | (qos << 1)]), variableByteInteger(body.length), body]);
}

import { connectAsync, type IClientOptions, type MqttClient, type Packet } from 'mqtt';

/** One MQTT packet as evidence: direction, type, and what matters of it. */
export interface PacketRecord {
  at: number;
  direction: 'sent' | 'received';
  cmd: string;
  topic?: string;
  qos?: number;
  retain?: boolean;
  bytes?: number;
  returnCode?: number;
}

export interface DeviceOptions {
  url: string;
  username: string;
  password: string;
  protocolVersion?: 4 | 5;
  connectTimeoutMs?: number;
}

/** A device as the checks drive it: real MQTT (mqtt.js), no-delay sockets, every packet kept as evidence. */
export interface MqttDevice {
  client: MqttClient;
  packets: PacketRecord[];
  /** Resolves when the broker closed the connection (or it failed), with the time. */
  closed: Promise<number>;
  publish(
    topic: string,
    payload: Buffer | string,
    options?: { qos?: 0 | 1; retain?: boolean },
  ): Promise<void>;
  close(): Promise<void>;
}

const keptPackets = 400;

function recordOf(packet: Packet, direction: PacketRecord['direction']): PacketRecord {
  const record: PacketRecord = { at: Date.now(), direction, cmd: packet.cmd };
  if ('topic' in packet && typeof packet.topic === 'string') record.topic = packet.topic;
  if ('qos' in packet && typeof packet.qos === 'number') record.qos = packet.qos;
  if ('retain' in packet && typeof packet.retain === 'boolean') record.retain = packet.retain;
  const payload: unknown = 'payload' in packet ? packet.payload : undefined;
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) record.bytes = Buffer.byteLength(payload);
  if ('returnCode' in packet && typeof packet.returnCode === 'number') record.returnCode = packet.returnCode;
  if ('reasonCode' in packet && typeof packet.reasonCode === 'number') record.returnCode = packet.reasonCode;
  return record;
}

// Nagle's algorithm holds small packets back for tens of milliseconds; the mqtt client has no option for it.
function disableNagle(client: MqttClient): void {
  const stream: unknown = client.stream;
  if (stream !== null && typeof stream === 'object' && 'setNoDelay' in stream)
    (stream as { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
}

/** Connects as a device; rejects with mqtt.js's error (its `code` is the CONNACK return code) when refused. */
export async function connectDevice(options: DeviceOptions): Promise<MqttDevice> {
  const packets: PacketRecord[] = [];
  const keep = (record: PacketRecord) => {
    packets.push(record);
    if (packets.length > keptPackets) packets.splice(0, packets.length - keptPackets);
  };
  const clientOptions: IClientOptions = {
    username: options.username,
    password: options.password,
    protocolVersion: options.protocolVersion ?? 4,
    reconnectPeriod: 0,
    // A CONNACK took over 5 s on the machine at load 20 (a broken variant's run failed "connack timeout"): the
    // bound only ends a connection that never answers, so it is generous.
    connectTimeout: options.connectTimeoutMs ?? 15_000,
    clean: true,
  };
  const client = await connectAsync(options.url, clientOptions);
  disableNagle(client);
  client.on('packetsend', (packet) => keep(recordOf(packet, 'sent')));
  client.on('packetreceive', (packet) => keep(recordOf(packet, 'received')));
  client.on('error', () => {});
  const closed = new Promise<number>((resolve) => client.once('close', () => resolve(Date.now())));
  return {
    client,
    packets,
    closed,
    async publish(topic, payload, publishOptions = {}) {
      await client.publishAsync(topic, payload, {
        qos: publishOptions.qos ?? 0,
        retain: publishOptions.retain ?? false,
      });
    },
    async close() {
      if (client.connected) await client.endAsync();
      else client.end(true);
    },
  };
}

/** The CONNACK return code of a refused connection, or null when it failed otherwise. */
export function refusalCode(error: unknown): number | null {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : null;
}

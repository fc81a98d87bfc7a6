import net from 'node:net';
import { generate, type IConnectPacket, type Packet, parser } from 'mqtt-packet';

/**
 * The smallest broker a publisher test needs, on mqtt's own packet codec (mqtt-packet): it answers CONNECT (or
 * refuses it), records each PUBLISH with its PUBACK for QoS 1, answers PINGREQ. No subscriptions, no QoS 2.
 */
export interface RecordedPublish {
  topic: string;
  payload: Buffer;
  qos: number;
  retain: boolean;
  contentType: string | undefined;
}

export interface MqttRecorder {
  url: string;
  connects: IConnectPacket[];
  publishes: RecordedPublish[];
  /** Drops every client connection, as a broker that goes away would. */
  dropClients(): void;
  close(): Promise<void>;
}

interface Recording {
  accept: (connect: IConnectPacket) => boolean;
  connects: IConnectPacket[];
  publishes: RecordedPublish[];
}

/** One client connection: parse its packets and answer each as a broker would. */
function serveClient(socket: net.Socket, recording: Recording): void {
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  const packets = parser();
  let protocolVersion = 4;
  const send = (packet: Packet) => socket.write(generate(packet, { protocolVersion }));
  packets.on('packet', (packet: Packet) => {
    if (packet.cmd === 'connect') {
      protocolVersion = packet.protocolVersion ?? 4;
      recording.connects.push(packet);
      const accepted = recording.accept(packet);
      // Refusal: 5 "not authorized" in MQTT 3.1.1, 0x87 "Not authorized" in MQTT 5.
      const code = accepted ? 0 : protocolVersion === 5 ? 0x87 : 5;
      const result = protocolVersion === 5 ? { reasonCode: code } : { returnCode: code };
      send({ cmd: 'connack', sessionPresent: false, ...result });
      if (!accepted) socket.end();
    } else if (packet.cmd === 'publish') {
      const { topic, qos, retain } = packet;
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      recording.publishes.push({ topic, payload, qos, retain, contentType: packet.properties?.contentType });
      if (qos === 1) send({ cmd: 'puback', messageId: packet.messageId ?? 0 });
    } else if (packet.cmd === 'pingreq') send({ cmd: 'pingresp' });
    else if (packet.cmd === 'disconnect') socket.end();
  });
  packets.on('error', () => socket.destroy());
  socket.on('data', (chunk) => packets.parse(chunk));
}

export async function startMqttRecorder(
  accept: (connect: IConnectPacket) => boolean = () => true,
): Promise<MqttRecorder> {
  const recording: Recording = { accept, connects: [], publishes: [] };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveClient(socket, recording);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const dropClients = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `mqtt://127.0.0.1:${port}`,
    connects: recording.connects,
    publishes: recording.publishes,
    dropClients,
    close: () => {
      dropClients();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

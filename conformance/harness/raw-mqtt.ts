import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { parser as createParser, generate, type Packet } from 'mqtt-packet';

/**
 * An MQTT connection on a bare socket, for what mqtt.js will not send (no CONNECT at all, a CONNECT too large, a
 * keep-alive it never honours, QoS 2): exact packets out, every packet in, and when the broker closed it.
 */
export interface RawConnection {
  received: Packet[];
  /** Every byte the broker sent, also what no packet of this version parses to. */
  bytesReceived(): number;
  openedAt: number;
  /** Date.now() when the broker closed the socket; null while open. */
  closedAt(): number | null;
  /** Sends a packet, or bytes as they are (a packet no encoder writes). */
  send(packet: Packet | Buffer): void;
  /** Resolves with the first received packet of `cmd`, or null after `timeoutMs` (or on close). */
  next(cmd: string, timeoutMs: number): Promise<Packet | null>;
  /** Resolves when the socket closed, with the time, or null after `timeoutMs`. */
  closed(timeoutMs: number): Promise<number | null>;
  end(): void;
}

export async function rawConnection(url: string, version: 4 | 5 = 4): Promise<RawConnection> {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'mqtts:';
  const port = Number(parsed.port || (tls ? 8883 : 1883));
  const socket: Socket = tls
    ? connectTls({ host: parsed.hostname, port, servername: parsed.hostname })
    : connectTcp({ host: parsed.hostname, port, noDelay: true });
  await new Promise<void>((resolve, reject) => {
    socket.once(tls ? 'secureConnect' : 'connect', () => resolve());
    socket.once('error', reject);
  });
  const parser = createParser({ protocolVersion: version });
  const received: Packet[] = [];
  const waiters = new Set<() => void>();
  let closedAt: number | null = null;
  let bytes = 0;
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  parser.on('packet', (packet: Packet) => {
    received.push(packet);
    wake();
  });
  socket.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    parser.parse(chunk);
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closedAt = Date.now();
    wake();
  });
  const waitFor = <Value>(find: () => Value | null, timeoutMs: number): Promise<Value | null> =>
    new Promise((resolve) => {
      const check = () => {
        const found = find();
        if (found === null && closedAt === null) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        resolve(find());
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    received,
    bytesReceived: () => bytes,
    openedAt: Date.now(),
    closedAt: () => closedAt,
    send: (packet) =>
      socket.write(Buffer.isBuffer(packet) ? packet : generate(packet, { protocolVersion: version })),
    next: (cmd, timeoutMs) => waitFor(() => received.find((packet) => packet.cmd === cmd) ?? null, timeoutMs),
    closed: (timeoutMs) => waitFor(() => closedAt, timeoutMs),
    end: () => socket.destroy(),
  };
}

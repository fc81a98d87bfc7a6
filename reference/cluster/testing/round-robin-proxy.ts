import net from 'node:net';

/** One address in front of several nodes: each new TCP connection goes to the next node in turn. */
export interface RoundRobinProxy {
  port: number;
  /** The nodes' ports on 127.0.0.1, in the order connections are handed out. */
  forwardTo(ports: number[]): void;
  /** How many connections each node got so far, in the order of `forwardTo`. */
  connectionsPerNode(): number[];
  close(): Promise<void>;
}

/** The client's address as the source of the upstream connection when it is on 127/8 (Linux answers all of it). */
function loopbackSource(address: string | undefined): { localAddress?: string } {
  const plain = address?.replace(/^::ffff:/, '');
  return plain !== undefined && net.isIPv4(plain) && plain.startsWith('127.') ? { localAddress: plain } : {};
}

/**
 * A TCP round-robin balancer on 127.0.0.1 (what HAProxy in TCP mode does in docs/deploy): HTTP keep-alive
 * connections, WebSocket upgrades and MQTT sessions pass through untouched, each pinned to the node it reached.
 */
export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let ports: number[] = [];
  let counts: number[] = [];
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const index = next % ports.length;
    next += 1;
    counts[index] = (counts[index] ?? 0) + 1;
    // A loopback client's own address (any of 127/8) is kept as the source of the node's connection, as a
    // transparent balancer would: the nodes count each client's per-address window, not the balancer's (ADR 0023).
    const upstream = net.connect({
      host: '127.0.0.1',
      port: ports[index] ?? 0,
      ...loopbackSource(client.remoteAddress),
    });
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    // A node that answers early and resets (413 to an oversized body) must still have its answer reach the client:
    // the client's side is ended after what was read, not destroyed.
    upstream.on('error', () => {
      client.unpipe(upstream);
      client.end();
    });
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    forwardTo(nodePorts) {
      ports = nodePorts;
      counts = nodePorts.map(() => 0);
    },
    connectionsPerNode: () => [...counts],
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

import { createServer, type Server } from 'node:net';
import type { Clock } from '../clock.js';
import type { FanoutBus } from '../fanout/fanout-bus.js';
import type { IngestFaults } from '../faults.js';
import type { Store } from '../storage/store.js';
import { DeviceConnection } from './device-connection.js';
import { DeviceErrorReporter } from './device-error-reporter.js';
import type { StreamLeases } from './stream-leases.js';
import { StreamSessions } from './stream-sessions.js';

export interface IngestServerOptions {
  host: string;
  /** 0 takes a free port. */
  port: number;
  store: Store;
  /** The service clock: timestamps of sessions and events. Ingest's own timers run on wall time. */
  clock: Clock;
  bus: FanoutBus;
  /** Several nodes sharing the store: device leases across them (ADR 0023). */
  leases?: StreamLeases | undefined;
  /** Failures that are the service's, not a device's (a store write that failed). */
  onFailure?: (error: unknown) => void;
  /** Test-only faults (reference/faults.ts). */
  faults?: IngestFaults | undefined;
}

export interface IngestServer {
  /** `mqtt://host:port`, `{mqtt_broker}` of the streams. */
  readonly url: string;
  readonly port: number;
  readonly sessions: StreamSessions;
  /** Open TCP connections, authenticated or not. */
  connectionCount(): number;
  /** Stops accepting, disconnects every device and resolves once every stream it held is idle. */
  close(): Promise<void>;
}

async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Devices reconnect together after an outage: a deep accept queue keeps the kernel from dropping their handshakes.
    server.listen({ port, host, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the ingest server has no port');
  return address.port;
}

/**
 * The MQTT ingest server: a lean MQTT 3.1.1 and 5 server on mqtt-packet that only ingests (ADR 0010). Streams a
 * previous run left live are set idle before the first device can connect.
 */
export async function startIngestServer(options: IngestServerOptions): Promise<IngestServer> {
  const onFailure = options.onFailure ?? ((error: unknown) => console.error('ingest:', error));
  const sessions = new StreamSessions(
    options.store,
    options.clock,
    options.bus,
    options.leases,
    options.faults,
  );
  await sessions.recover();
  const errors = new DeviceErrorReporter(options.store, options.clock, onFailure);
  const faults = options.faults ?? {};
  const context = { store: options.store, sessions, errors, bus: options.bus, onFailure, faults };
  const connections = new Set<DeviceConnection>();
  const server = createServer({ noDelay: true }, (socket) => {
    const connection = new DeviceConnection(socket, context);
    connections.add(connection);
    void connection.done.then(() => connections.delete(connection));
  });
  const port = await listen(server, options.host, options.port);
  return {
    url: `mqtt://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    sessions,
    connectionCount: () => connections.size,
    async close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const closing = [...connections].map((connection) => {
        connection.shutDown();
        return connection.done;
      });
      await Promise.all([stopped, ...closing]);
      await sessions.settled();
    },
  };
}

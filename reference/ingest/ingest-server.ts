import { createServer, type Server } from 'node:net';
import type { Clock } from '../clock.js';
import type { FanoutBus } from '../fanout/fanout-bus.js';
import type { IngestFaults } from '../faults.js';
import type { Store } from '../storage/store.js';
import { DeviceConnection } from './device-connection.js';
import { DeviceErrorReporter } from './device-error-reporter.js';
import { EventLoopLag, type LoadReading } from './event-loop-lag.js';
import { defaultOverloadSettings, OverloadGuard, type OverloadSettings } from './overload-guard.js';
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
  /** Decides when the service sheds load (x-ingest-rules.overload); by default the event loop's lag and use. */
  overload?: OverloadGuard | undefined;
  /** Tuning of the default guard (ADR 0029). */
  overloadSettings?: Partial<OverloadSettings> | undefined;
}

export interface IngestServer {
  /** `mqtt://host:port`, `{mqtt_broker}` of the streams. */
  readonly url: string;
  readonly port: number;
  readonly sessions: StreamSessions;
  readonly overload: OverloadGuard;
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

function logOverload(overloaded: boolean, reading: LoadReading): void {
  const measured = `event-loop lag ${reading.lagMilliseconds.toFixed(0)} ms, utilization ${reading.utilization.toFixed(2)}, ingest ${reading.ingestShare.toFixed(2)}`;
  console.warn(
    overloaded
      ? `ingest: overloaded (${measured}): refusing new devices and shedding samples as device.error service_overloaded`
      : `ingest: recovered from overload (${measured})`,
  );
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
  const faults = options.faults ?? {};
  const overload =
    options.overload ??
    new OverloadGuard(
      new EventLoopLag(),
      { ...defaultOverloadSettings, ...options.overloadSettings },
      logOverload,
    );
  overload.start();
  const errors = new DeviceErrorReporter(
    options.store,
    options.clock,
    onFailure,
    Date.now,
    overload.settings.errorEventsPerSecond,
  );
  const context = { store: options.store, sessions, errors, bus: options.bus, overload, onFailure, faults };
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
    overload,
    connectionCount: () => connections.size,
    async close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const closing = [...connections].map((connection) => {
        connection.shutDown();
        return connection.done;
      });
      await Promise.all([stopped, ...closing]);
      await sessions.settled();
      overload.stop();
    },
  };
}

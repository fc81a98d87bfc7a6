import { createServer, type Server } from 'node:net';
import type { FastifyInstance, FastifyListenOptions } from 'fastify';

/** The listening socket of a reservation; Node's `server.listen` adopts one given as `handle` (net.md, "server.listen(handle)"). */
type ListenHandle = object;

/**
 * Reserves a port first (0 = a free one) so the service knows its URLs before building the apps, then hands the
 * reservation's listening socket itself to Fastify. Closing the reservation and listening again on its port left a
 * gap in which an outgoing connection could take the port as its ephemeral one (EADDRINUSE in CI, wave 15).
 */
export async function listen(
  host: string,
  port: number,
): Promise<{ port: number; handOver(app: FastifyInstance): Promise<void> }> {
  const reservation: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    reservation.once('error', reject);
    reservation.listen(port, host, resolve);
  });
  const address = reservation.address();
  const chosen = typeof address === 'object' && address !== null ? address.port : port;
  return {
    port: chosen,
    async handOver(app) {
      const handle = takeHandle(reservation);
      const options: FastifyListenOptions & { handle: ListenHandle } = { host, port: chosen, handle };
      await app.listen(options);
    },
  };
}

/** Detaches the socket from the reservation, so that only the app's server owns (and closes) it. */
function takeHandle(reservation: Server): ListenHandle {
  const holder = reservation as unknown as { _handle: ListenHandle | null };
  const handle = holder._handle;
  if (handle === null) throw new Error('the port reservation was closed before it was handed over');
  holder._handle = null;
  return handle;
}

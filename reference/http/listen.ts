import { createServer, type Server } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Reserves a port first (0 = a free one) so the service knows its URLs before building the apps, then hands the
 * port to Fastify. The gap between closing the reservation and Fastify's listen is a few microseconds on loopback.
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
      await new Promise<void>((resolve) => reservation.close(() => resolve()));
      await app.listen({ host, port: chosen });
    },
  };
}

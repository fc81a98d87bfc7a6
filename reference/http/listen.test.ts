// The port a service reserves for its URLs must stay its own until the app listens on it: any moment in which the
// port is free lets another socket on the machine take it, and the service then fails with EADDRINUSE (wave 15's CI).
import { createServer, type Server } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from './listen.js';

const host = '127.0.0.1';
const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const each of opened.splice(0)) await each.close();
});

/** Tries to bind `port` on every turn of the event loop until stopped; resolves with whether it ever succeeded. */
function contend(port: number): { stop(): Promise<boolean> } {
  let stopped = false;
  let won: Server | undefined;
  const attempts = (async () => {
    while (!stopped && won === undefined) {
      const rival = createServer();
      const bound = await new Promise<boolean>((resolve) => {
        rival.once('error', () => resolve(false));
        rival.listen(port, host, () => resolve(true));
      });
      if (bound) won = rival;
      else await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await attempts;
      if (won === undefined) return false;
      await new Promise((resolve) => won?.close(resolve));
      return true;
    },
  };
}

describe('listen: reserve a port, then hand it to the app', () => {
  it('never frees the port between the reservation and the app listening on it', async () => {
    const listener = await listen(host, 0);
    const app = Fastify();
    app.get('/', async () => ({ served: true }));
    opened.push(app);
    const rival = contend(listener.port);
    await listener.handOver(app);
    expect(await rival.stop()).toBe(false);
    const address = app.server.address();
    expect(typeof address === 'object' && address?.port).toBe(listener.port);
    const reply = await fetch(`http://${host}:${listener.port}/`);
    expect(await reply.json()).toEqual({ served: true });
  });

  it('releases the port when the app closes', async () => {
    const listener = await listen(host, 0);
    const app = Fastify();
    await listener.handOver(app);
    await app.close();
    const again = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(listener.port, host, resolve);
    });
    opened.push(again);
  });

  it('fails with the bind error when the asked-for port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, host, resolve));
    opened.push(taken);
    const port = (taken.address() as { port: number }).port;
    await expect(listen(host, port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

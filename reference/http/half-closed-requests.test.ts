// A client that sends its whole request and half-closes still gets the answer, however long the handler takes
// (the store on its own thread answers a turn of the event loop later than the FIN is read).
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { sendRaw } from '../testing/hostile-requests.js';
import { answerHalfClosedRequests } from './http-edges.js';

const apps: Array<ReturnType<typeof Fastify>> = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A server whose one route answers after `delayMs`, as a handler waiting for its store would. */
async function slowServer(halfOpen: boolean, delayMs: number): Promise<number> {
  const app = Fastify();
  apps.push(app);
  if (halfOpen) answerHalfClosedRequests(app);
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return { answered: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

const halfClosing = 'GET /slow HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n';

describe('requests from a client that half-closed its side', () => {
  it('are answered, and the connection closes after the response', async () => {
    const reply = await sendRaw(await slowServer(true, 50), halfClosing);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ answered: true });
  });

  it('went unanswered with Node’s default (the case this guards against)', async () => {
    const reply = await sendRaw(await slowServer(false, 50), halfClosing);
    expect(reply.status).toBe(0);
  });
});

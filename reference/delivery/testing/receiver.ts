import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got: its headers and raw body, and when (wall clock). */
export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  receivedAt: number;
}

/** Answers a request whose body has been read; may also hang, stream, or destroy the socket. */
export type Behaviour = (request: IncomingMessage, response: ServerResponse, received: Received) => void;

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export const answer =
  (status: number): Behaviour =>
  (_request, response) =>
    response.writeHead(status).end();

/** A node:http receiver on 127.0.0.1 (free port) for webhook deliveries. */
export async function startReceiver(behaviour: Behaviour = answer(204), path = '/hook'): Promise<Receiver> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      received.push(entry);
      for (const waiter of waiters) waiter();
      behaviour(request, response, entry);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    waitFor(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${received.length} of ${count} requests arrived in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

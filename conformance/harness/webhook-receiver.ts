import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** One request as it reached the receiver: exact bytes and wall-clock times, for signatures and the schedule. */
export interface ReceivedDelivery {
  route: string;
  /** 1 for the first request on this route. */
  attempt: number;
  method: string;
  path: string;
  /** Header names in lower case; repeated headers joined by `, ` as node:http does. */
  headers: Record<string, string>;
  rawBody: Buffer;
  /** Date.now() when the request's body was complete. */
  arrivedAt: number;
  /** What the receiver did: a status, or `hang` (no answer until the sender gave up). */
  answer: number | 'hang';
  /** Date.now() when the sender closed the connection of a hung request, or answered one late. */
  closedAt: number | null;
}

/** What the receiver answers to the n-th request (1-based) of a route. */
export type Behaviour = (attempt: number) => { status: number; location?: string; delayMs?: number } | 'hang';

export const answerOk: Behaviour = () => ({ status: 200 });

export class WebhookReceiver {
  readonly #routes = new Map<string, Behaviour>();
  readonly #received: ReceivedDelivery[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #prefix = randomBytes(6).toString('hex');

  private constructor(
    private readonly server: Server,
    /** The URL at which the target reaches the receiver's root. */
    readonly publicUrl: string,
  ) {
    server.on('request', (request, response) => this.#handle(request, response));
  }

  /**
   * Listens on `listen`; the public URL defaults to the address it listens on. A `{listen-port}` in the public URL
   * becomes the port it listens on (a forwarding proxy that routes by port, as the broken variants' webhook proxy).
   */
  static async start(
    listen: { host: string; port: number },
    publicUrl: string | null,
  ): Promise<WebhookReceiver> {
    const server = createServer();
    server.listen(listen.port, listen.host);
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = (publicUrl ?? `http://${host}:${address.port}`).replace(
      '{listen-port}',
      String(address.port),
    );
    return new WebhookReceiver(server, url.replace(/\/+$/, ''));
  }

  /** A fresh route answering with `behaviour`; returns the URL to register as a webhook's url. */
  route(name: string, behaviour: Behaviour = answerOk): { route: string; url: string } {
    const route = `${this.#prefix}-${name}-${randomBytes(4).toString('hex')}`;
    this.#routes.set(route, behaviour);
    return { route, url: `${this.publicUrl}/${route}` };
  }

  deliveries(route: string): ReceivedDelivery[] {
    return this.#received.filter((delivery) => delivery.route === route);
  }

  /** Resolves when `test` holds over the route's deliveries, or rejects after `timeoutMs`. */
  async waitFor(route: string, test: (deliveries: ReceivedDelivery[]) => boolean, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while (!test(this.deliveries(route))) {
      const left = deadline - Date.now();
      if (left <= 0) return this.deliveries(route);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 1000));
        this.#waiters.add(wake);
      });
    }
    return this.deliveries(route);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const route = path.split('?')[0]?.split('/').filter(Boolean).at(-1) ?? '';
      const behaviour = this.#routes.get(route);
      const attempt = this.deliveries(route).length + 1;
      const answer = behaviour === undefined ? { status: 404 } : behaviour(attempt);
      const delivery: ReceivedDelivery = {
        route,
        attempt,
        method: request.method ?? '',
        path,
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(', ') : (value ?? ''),
          ]),
        ),
        rawBody: Buffer.concat(chunks),
        arrivedAt: Date.now(),
        answer: answer === 'hang' ? 'hang' : answer.status,
        closedAt: null,
      };
      this.#received.push(delivery);
      for (const wake of [...this.#waiters]) wake();
      if (answer === 'hang') {
        response.on('close', () => {
          delivery.closedAt = Date.now();
        });
        return;
      }
      const write = () => {
        if (answer.delayMs !== undefined) delivery.closedAt = Date.now();
        response.writeHead(answer.status, answer.location === undefined ? {} : { location: answer.location });
        response.end();
      };
      if (answer.delayMs === undefined) write();
      else setTimeout(write, answer.delayMs);
    });
  }
}

import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';

/** A delivery as the proxy forwards it: the fault may change its headers or body. */
export interface ForwardedDelivery {
  headers: Record<string, string>;
  body: Buffer;
}

export type DeliveryFault = (delivery: ForwardedDelivery) => ForwardedDelivery;

/** The placeholder of a receiver's public URL that the receiver replaces with the port it listens on. */
export const listenPortPlaceholder = '{listen-port}';

export interface WebhookProxy {
  /** `--webhook-public-url`: deliveries to `<url>/<port>/<route>` go to 127.0.0.1:<port>/<route>. */
  publicUrl: string;
  readonly forwarded: number;
  close(): Promise<void>;
}

/**
 * A webhook forwarding proxy between the service and the harness's receivers, with a fault on every delivery. The
 * receiver's port is the first path segment, so receivers of several check files can share it. The receiver's answer
 * goes back as it was; a receiver that does not answer keeps the service waiting until the service gives up, and
 * then sees its request closed, as it would without the proxy.
 */
export async function startWebhookProxy(fault: DeliveryFault): Promise<WebhookProxy> {
  const server = createServer();
  let forwarded = 0;
  server.on('request', (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const [, port, ...rest] = (incoming.url ?? '/').split('/');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers))
        if (value !== undefined && !['host', 'content-length', 'connection'].includes(name))
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const changed = fault({ headers, body: Buffer.concat(chunks) });
      forwarded += 1;
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: Number(port),
          method: incoming.method,
          path: `/${rest.join('/')}`,
          headers: { ...changed.headers, 'content-length': String(changed.body.length) },
        },
        (answer) => {
          const location = answer.headers.location;
          outgoing.writeHead(answer.statusCode ?? 502, location === undefined ? {} : { location });
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      // The service gave up (its timeout): the receiver sees its request closed too.
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) upstream.destroy();
      });
      upstream.end(changed.body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    publicUrl: `http://127.0.0.1:${address.port}/${listenPortPlaceholder}`,
    get forwarded() {
      return forwarded;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';

/**
 * What a fault does to one subscriber's frames: each LiveFrame text in, the texts to send instead out (none drops
 * it, two duplicate it). A fresh one per connection, so it can count.
 */
export type FrameFault = (frame: string) => string[];

export interface LiveFeedProxy {
  /** `--ws-url` through the proxy. */
  wsUrl: string;
  /** Frames the fault changed (dropped, duplicated or rewritten), to assert it was exercised. */
  readonly changed: number;
  close(): Promise<void>;
}

/** Frames this far behind on the subscriber's side pause the service's side, so a slow consumer stays slow. */
const pauseAboveBytes = 64 * 1024;

/** Answers a refused upgrade as the service did: status, content type and body. */
function refuse(socket: Duplex, status: number, statusText: string, type: string | undefined, body: Buffer) {
  const head = [`HTTP/1.1 ${status} ${statusText}`, `content-length: ${body.length}`, 'connection: close'];
  if (type !== undefined) head.push(`content-type: ${type}`);
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]));
}

/** Ends `to` the way `from` ended: the same close code, or no close frame (1006) when there was none. */
function closeLike(to: WebSocket, code: number, reason: Buffer) {
  if (code === 1005) to.close();
  else if (code === 1006) to.terminate();
  else to.close(code, reason);
}

function relay(upstream: WebSocket, downstream: WebSocket, fault: FrameFault, count: () => void) {
  let resumeTimer: NodeJS.Timeout | null = null;
  upstream.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    const frames = fault(text);
    if (frames.length !== 1 || frames[0] !== text) count();
    for (const frame of frames) downstream.send(frame);
    if (downstream.bufferedAmount > pauseAboveBytes && resumeTimer === null) {
      upstream.pause();
      resumeTimer = setInterval(() => {
        if (downstream.bufferedAmount > pauseAboveBytes && downstream.readyState === WebSocket.OPEN) return;
        if (resumeTimer !== null) clearInterval(resumeTimer);
        resumeTimer = null;
        upstream.resume();
      }, 5);
    }
  });
  downstream.on('message', (data: Buffer, isBinary) => upstream.send(data, { binary: isBinary }));
  upstream.on('close', (code, reason) => {
    if (resumeTimer !== null) clearInterval(resumeTimer);
    closeLike(downstream, code, reason);
  });
  downstream.on('close', (code, reason) => closeLike(upstream, code, reason));
  upstream.on('error', () => downstream.terminate());
  downstream.on('error', () => upstream.terminate());
}

/**
 * A WebSocket proxy in front of the live feed with a fault on the frames it relays to subscribers. Handshake
 * refusals, close codes and subscriber frames pass unchanged; backpressure passes too (the service's side pauses
 * while the subscriber's side is behind), so the service still sees a slow consumer.
 */
export async function startLiveFeedProxy(
  upstreamWsUrl: string,
  newFault: () => FrameFault,
): Promise<LiveFeedProxy> {
  const server = createServer((_request, response) => response.writeHead(426).end());
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const upstreamBase = upstreamWsUrl.replace(/\/+$/, '');
  let changed = 0;
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const upstream = new WebSocket(`${upstreamBase}${request.url ?? '/'}`, { perMessageDeflate: false });
    upstream.on('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        refuse(
          socket,
          response.statusCode ?? 502,
          response.statusMessage ?? '',
          response.headers['content-type'],
          Buffer.concat(chunks),
        ),
      );
    });
    upstream.once('error', () => socket.destroy());
    upstream.once('open', () =>
      sockets.handleUpgrade(request, socket, head, (downstream) =>
        relay(upstream, downstream, newFault(), () => {
          changed += 1;
        }),
      ),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    wsUrl: `ws://127.0.0.1:${address.port}`,
    get changed() {
      return changed;
    },
    async close() {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

import WebSocket, { type RawData } from 'ws';
import type { AddressTemplate } from './address-template.js';
import type { Codec } from './codecs/codec.js';

/** A channel as the generated code binds it: its path template and the decoders of its messages. */
export interface WsChannel<Parameters, Message> {
  readonly address: AddressTemplate<Parameters>;
  /** One decoder per content type; a frame goes to the first whose binary-ness matches it, else the first. */
  readonly decoders: ReadonlyArray<Pick<Codec<Message>, 'binary' | 'decode'>>;
}

export interface WsSubscriberOptions<Parameters, Message> {
  /** The server's base URL (`wss://host`); the channel's path is appended to its path. */
  url: string;
  parameters: Parameters;
  /** Query parameters of the handshake, such as a token. */
  query?: Readonly<Record<string, string>>;
  onMessage: (message: Message) => void;
  /** Frames that do not decode and socket errors; the connection stays up after a bad frame. */
  onError?: (error: Error) => void;
  onClose?: (code: number, reason: string) => void;
  /** Reconnection after a connection that was up drops; off unless given. */
  reconnect?: { delayMs: number; maxAttempts: number };
}

export interface WsSubscription {
  readonly url: string;
  /** Closes and stops reconnecting; resolves when the socket is closed. */
  close(code?: number, reason?: string): Promise<void>;
}

/** The server refused the upgrade; `body` holds its answer (an error envelope, for instance). */
export class WsHandshakeError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`WebSocket upgrade refused with HTTP ${status}`);
    this.name = 'WsHandshakeError';
  }
}

export function channelUrl(base: string, path: string, query: Readonly<Record<string, string>> = {}): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

function frameBytes(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? Buffer.from(data) : data;
}

/**
 * Opens one socket; resolves when it is open, rejects on a refused or failed handshake. `onMessage` is attached
 * before the handshake: a server may send its first frame in the same packet as its 101 answer, and ws emits it in
 * the same turn as 'open', before a caller awaiting this promise could attach a listener.
 */
function open(url: string, onMessage: (data: RawData, isBinary: boolean) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('message', onMessage);
    socket.on('error', reject);
    socket.once('open', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    // With this listener ws leaves the refused request to us: read the answer, then drop the connection.
    socket.once('unexpected-response', (request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => {
        reject(new WsHandshakeError(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
        request.destroy();
      });
    });
  });
}

/** Picks a frame's decoder, decodes it, and hands the message on or reports why it could not. */
function frameHandler<Message>(
  channel: WsChannel<unknown, Message>,
  options: Pick<WsSubscriberOptions<unknown, Message>, 'onMessage' | 'onError'>,
) {
  return (data: RawData, isBinary: boolean) => {
    const decoder =
      channel.decoders.find((candidate) => candidate.binary === isBinary) ?? channel.decoders[0];
    if (decoder === undefined) return;
    let message: Message;
    try {
      message = decoder.decode(frameBytes(data));
    } catch (error) {
      options.onError?.(error as Error);
      return;
    }
    options.onMessage(message);
  };
}

/** Connects to the channel's URL and delivers every decoded frame until closed. */
export async function subscribeChannel<Parameters, Message>(
  channel: WsChannel<Parameters, Message>,
  options: WsSubscriberOptions<Parameters, Message>,
): Promise<WsSubscription> {
  const url = channelUrl(options.url, channel.address.build(options.parameters), options.query);
  const deliver = frameHandler(channel, options);
  let socket = await open(url, deliver);
  let closing = false;
  let attempts = 0;
  let timer: NodeJS.Timeout | undefined;
  const attach = (current: WebSocket) => {
    current.on('error', (error) => options.onError?.(error));
    current.on('close', (code, reason) => {
      options.onClose?.(code, reason.toString('utf8'));
      if (!closing) reconnect();
    });
  };
  const reconnect = () => {
    const policy = options.reconnect;
    if (policy === undefined || attempts >= policy.maxAttempts) return;
    attempts += 1;
    timer = setTimeout(() => {
      open(url, deliver).then(
        (next) => {
          attempts = 0;
          socket = next;
          attach(next);
          if (closing) next.close();
        },
        (error: Error) => {
          options.onError?.(error);
          reconnect();
        },
      );
    }, policy.delayMs);
  };
  attach(socket);
  return {
    url,
    close(code = 1000, reason = '') {
      closing = true;
      clearTimeout(timer);
      if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise((resolve) => {
        socket.once('close', () => resolve());
        socket.close(code, reason);
      });
    },
  };
}

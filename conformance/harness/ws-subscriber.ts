import type { Socket } from 'node:net';
import WebSocket from 'ws';

/** One frame as it arrived: wall time and the parsed messages (a LiveFrame is a JSON array). */
export interface FrameRecord {
  at: number;
  bytes: number;
  messages: unknown[];
  /** The text when it did not parse as a JSON array. */
  unparsed?: string;
}

/** A refused upgrade: the HTTP status and body the service answered with. */
export interface HandshakeRefusal {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text: string;
}

export interface Subscriber {
  socket: WebSocket;
  frames: FrameRecord[];
  /** Every message of every frame, in arrival order. */
  messages(): unknown[];
  /** Resolves with the close code and reason, and when. */
  closed: Promise<{ code: number; reason: string; at: number }>;
  /** Stops reading from the socket, so the service's send buffer for this subscriber grows (a slow consumer). */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/** Opens the live feed; resolves on open, or with the refusal when the upgrade is answered with an HTTP status. */
export async function subscribe(url: string): Promise<Subscriber | HandshakeRefusal> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  const frames: FrameRecord[] = [];
  socket.on('message', (data: Buffer, isBinary) => {
    const text = isBinary ? '' : data.toString('utf8');
    const record: FrameRecord = { at: Date.now(), bytes: data.length, messages: [] };
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) record.messages = parsed;
      else record.unparsed = text.slice(0, 500);
    } catch {
      record.unparsed = text.slice(0, 500);
    }
    frames.push(record);
  });
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString(), at: Date.now() })),
  );
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      const raw = (socket as unknown as { _socket: Socket })._socket;
      resolve({
        socket,
        frames,
        messages: () => frames.flatMap((frame) => frame.messages),
        closed,
        pause: () => raw.pause(),
        resume: () => raw.resume(),
        async close() {
          if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)
            socket.close();
          await closed;
        },
      });
    });
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON: the text is the evidence.
        }
        const headers = Object.fromEntries(
          Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
        );
        socket.terminate();
        resolve({ status: response.statusCode ?? 0, headers, body, text: text.slice(0, 2000) });
      });
    });
    socket.once('error', (error) => reject(error));
  });
}

export function isRefusal(value: Subscriber | HandshakeRefusal): value is HandshakeRefusal {
  return 'status' in value;
}

// Raw HTTP/1.1 over a socket (TLS for https), for requests no HTTP client would send: broken framing, oversized
// headers, a request that stops half-way. The answer is read until the target closes the connection.
import net from 'node:net';
import tls from 'node:tls';

export interface RawAnswer {
  /** The status of the answer's status line, or null when none came. */
  status: number | null;
  headers: Record<string, string>;
  body: unknown;
  text: string;
  /** Milliseconds from the first byte sent to the connection's end. */
  closedAfterMs: number;
}

function parseAnswer(raw: string, closedAfterMs: number): RawAnswer {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = rest.join('\r\n\r\n');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text is the evidence.
  }
  return {
    status: status === undefined ? null : Number(status),
    headers,
    body,
    text: text.slice(0, 2000),
    closedAfterMs,
  };
}

/**
 * Sends `head` (and nothing more) to the origin of `baseUrl`, then waits up to `waitMs` for the target to answer and
 * close. The socket is destroyed at the deadline: a target that neither answers nor closes yields status null.
 */
export function sendRaw(baseUrl: string, head: string | Buffer, waitMs: number): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) === 0 ? host : undefined })
      : net.connect({ host, port });
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'), Date.now() - started));
    };
    const timer = setTimeout(finish, waitMs);
    socket.on(secure ? 'secureConnect' : 'connect', () => socket.write(head));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', finish);
    socket.on('error', () => {});
  });
}

/** The path of `baseUrl` (`/v2`) before an operation's path. */
export function basePath(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '');
}

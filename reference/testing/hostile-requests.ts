import { connect } from 'node:net';
import { routes } from '../../generated/server/routes.js';
import { isErrorEnvelope } from '../../runtime/error-envelope.js';
import type { RestOperationId } from './call-operation.js';
import { restOperationIds } from './call-operation.js';

/**
 * Requests written byte by byte on a socket, for what `inject()` cannot send: bad framing, bogus methods, no Host,
 * duplicate headers, header overflow, and JSON that parsers handle in surprising ways (issue 12, item 5).
 */
export interface HostileRequest {
  name: string;
  /** The whole request as sent; `{host}` and `{token}` are filled in. */
  raw: string;
  /** Must be refused (an error envelope below 500); otherwise a success is as good as an error envelope. */
  refuse: boolean;
}

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes the server sent after its first answer's Content-Length: a second answer to the one request. */
  after: string;
}

const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** JSON texts that are well-formed, or nearly, and hostile to a parser, a validator or a database. */
export const hostileJsonTexts: ReadonlyArray<[string, (valid: string) => string]> = [
  ['lone high surrogate', (valid) => valid.replace(/":"/, '":"bad \\ud800 half')],
  ['lone low surrogate', (valid) => valid.replace(/":"/, '":"\\udc00')],
  ['surrogate in a key', (valid) => valid.replace(/^\{/, '{"\\ud800":1,')],
  ['surrogate in metadata', (valid) => valid.replace(/^\{/, '{"metadata":{"site":"\\udfff"},')],
  ['nesting 7,000 deep', () => deep(7000)],
  ['nesting 7,000 deep in a value', (valid) => valid.replace(/^\{/, `{"metadata":${deep(7000)},`)],
  ['arrays 100,000 deep', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ['duplicate keys', (valid) => valid.replace(/^\{/, '{"title":"first",')],
  ['overflowing number', (valid) => valid.replace(/^\{/, '{"expiresIn":1e400,"ts":1e400,')],
  ['overflowing number in samples', () => '{"title":"t","samples":[{"ts":1e400,"values":{"rpm":1e400}}]}'],
  ['negative overflow', (valid) => valid.replace(/^\{/, '{"expiresIn":-1e400,')],
  ['nul escape', (valid) => valid.replace(/":"/, '":"\\u0000')],
  ['truncated', (valid) => valid.slice(0, -1)],
  ['trailing garbage', (valid) => `${valid}}`],
];

const validBodies: Partial<Record<RestOperationId, string>> = {
  createStream: '{"title":"Pump"}',
  updateStream: '{"title":"Pump"}',
  createReport: '{"title":"Night"}',
  updateReport: '{"title":"Night"}',
  createRecord: '{"title":"Run","samples":[{"ts":1795253472250,"values":{"rpm":1}}]}',
  updateRecord: '{"title":"Run"}',
  createWebhook: '{"url":"https://hooks.example.com/t","events":["report.generated"]}',
  createSubscriberToken: '{"expiresIn":900,"title":"x"}',
};

const pathIds: Record<string, string> = {
  streamId: 'stm_0000000000000000',
  reportId: 'rpt_0000000000000000',
  recordId: 'rec_0000000000000000',
  webhookId: 'whk_0000000000000000',
};

function pathOf(basePath: string, operationId: RestOperationId): string {
  return `${basePath}${routes[operationId].url.replace(/:([A-Za-z]+)/g, (_whole, name: string) => pathIds[name] ?? 'x')}`;
}

function request(method: string, path: string, headers: string[], body = ''): string {
  const length = body === '' ? [] : [`Content-Length: ${Buffer.byteLength(body)}`];
  return `${method} ${path} HTTP/1.1\r\n${[...headers, ...length, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`;
}

/** The corpus over every REST operation: JSON bodies for those with one, framing and header cases for all. */
export function hostileRequests(basePath: string): HostileRequest[] {
  const host = 'Host: {host}';
  const auth = 'Authorization: Bearer {token}';
  const json = 'Content-Type: application/json';
  return restOperationIds.flatMap((operationId): HostileRequest[] => {
    const { method } = routes[operationId];
    const path = pathOf(basePath, operationId);
    const valid = validBodies[operationId];
    const bodies = (valid === undefined ? [] : hostileJsonTexts).map(([name, make]) => ({
      name: `${operationId} ${name}`,
      raw: request(method, path, [host, auth, json], make(valid ?? '')),
      refuse: true,
    }));
    const refused = (name: string, raw: string) => ({ name: `${operationId} ${name}`, raw, refuse: true });
    const answered = (name: string, raw: string) => ({ name: `${operationId} ${name}`, raw, refuse: false });
    return [
      ...bodies,
      refused('QUERY method', request('QUERY', path, [host, auth])),
      refused('bogus method', request('FROB', path, [host, auth])),
      refused('lower-case method', request(method.toLowerCase(), path, [host, auth])),
      answered('Expect: bogus', request(method, path, [host, auth, 'Expect: bogus'])),
      answered('no Host', request(method, path, [auth])),
      answered('two Hosts', request(method, path, [host, host, auth])),
      refused(
        'two Authorization headers',
        request(method, path, [host, auth, 'Authorization: Bearer sk_live_other']),
      ),
      refused('header overflow', request(method, path, [host, auth, `X-Padding: ${'a'.repeat(20_000)}`])),
      refused(
        'many headers',
        request(method, path, [host, auth, ...Array.from({ length: 3000 }, (_, index) => `X-H${index}: 1`)]),
      ),
      refused(
        'bad chunk size',
        `${method} ${path} HTTP/1.1\r\n${host}\r\n${auth}\r\n${json}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      ),
      // Refused from its headers (the Content-Type; for a bodiless operation its route answers later), after which
      // Node goes on reading the body and meets the broken framing: one answer only, not that one and a 400.
      refused(
        'refused before a bad chunk size',
        `${method} ${path} HTTP/1.1\r\n${host}\r\n${auth}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      ),
      refused(
        'chunked and Content-Length',
        `${method} ${path} HTTP/1.1\r\n${host}\r\n${auth}\r\n${json}\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      ),
      refused(
        'bad Content-Length',
        `${method} ${path} HTTP/1.1\r\n${host}\r\n${auth}\r\n${json}\r\nContent-Length: abc\r\nConnection: close\r\n\r\n{}`,
      ),
      refused(
        'space in the request line',
        `${method} ${path} x HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`,
      ),
      refused('HTTP/2.0 line', `${method} ${path} HTTP/2.0\r\n${host}\r\nConnection: close\r\n\r\n`),
      refused('bare LF', `${method} ${path} HTTP/1.1\n${host}\n${auth}\nConnection: close\n\n`),
      refused('obs-fold header', request(method, path, [host, auth, 'X-Fold: a', ' b'])),
      refused('invalid header name', request(method, path, [host, auth, 'X Bad: 1'])),
    ];
  });
}

function parseReply(bytes: Buffer): RawReply {
  const split = bytes.indexOf('\r\n\r\n');
  const head = (split === -1 ? bytes : bytes.subarray(0, split)).toString('utf8');
  const rest = split === -1 ? Buffer.alloc(0) : bytes.subarray(split + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const status = Number(statusLine.split(' ')[1] ?? 0);
  if (headers['transfer-encoding'] === 'chunked')
    return { status, headers, body: dechunk(rest.toString('utf8')), after: '' };
  const length = Number(headers['content-length'] ?? rest.length);
  return {
    status,
    headers,
    body: rest.subarray(0, length).toString('utf8'),
    after: rest.subarray(length).toString('utf8'),
  };
}

function dechunk(body: string): string {
  let rest = body;
  let out = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 4 + size);
  }
}

/** Writes the request on a fresh connection and reads until the server closes it (or `timeoutMs`). */
export function sendRaw(port: number, raw: string, timeoutMs = 10_000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer in time'));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while we still write (a header overflow): what it sent before counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseReply(Buffer.concat(chunks)));
    });
    socket.end(raw);
  });
}

/**
 * What the corpus requires of every answer: one answer per request, below 500, the error envelope for every error, no
 * empty `param`, and a refusal of what must be refused (a duplicate key, an overflowing number, a lone surrogate, two
 * credentials).
 */
export function judge(request: HostileRequest, reply: RawReply): string | null {
  if (reply.status === 0) return 'no answer';
  if (reply.after !== '')
    return `answered twice: ${JSON.stringify(reply.after.slice(0, 40))} after the answer`;
  if (reply.status >= 500) return `status ${reply.status}`;
  if (reply.status < 400) return request.refuse ? `accepted with ${reply.status}` : null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.body);
  } catch {
    return `status ${reply.status} without a JSON body`;
  }
  if (!isErrorEnvelope(parsed)) return `status ${reply.status} without the envelope`;
  if (parsed.error.param === '') return `status ${reply.status} with an empty param`;
  return null;
}

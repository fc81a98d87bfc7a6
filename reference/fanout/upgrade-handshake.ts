import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { parseLiveFeedAddress } from '../../generated/messages/live-feed.js';
import { requestIdHeader } from '../../generated/server/plugin.js';
import { envelope } from '../../runtime/error-envelope.js';
import type { Clock } from '../clock.js';
import { problem } from '../problems.js';
import { newId } from '../services/ids.js';
import { verifySubscriberToken } from '../services/subscriber-tokens.js';
import type { StreamRow } from '../storage/rows.js';
import { handshakeErrorCodes } from './live-feed-rules.js';

/** What the fan-out needs of a stream. */
export type LiveStream = Pick<StreamRow, 'id' | 'accountId' | 'status'>;

export interface HandshakeDependencies {
  /** The stream of an account, or null when it does not exist (deleted). */
  findStream(accountId: string, streamId: string): Promise<LiveStream | null>;
  clock: Clock;
  signingKey: Uint8Array;
  /** The path `{ws_url}` ends with, before the channel's address ('' on a bare host). */
  basePath: string;
}

/** An accepted handshake: the stream and when the token runs out (service clock, Unix milliseconds). */
export interface AcceptedHandshake {
  stream: LiveStream;
  tokenExpiresAt: number;
}

type Refusal = ReturnType<typeof problem>;

function verifiedToken(dependencies: HandshakeDependencies, token: string | null) {
  if (token === null || token === '')
    return problem(handshakeErrorCodes.missingToken, 'The token query parameter is required.', 'token');
  try {
    const check = verifySubscriberToken(dependencies.signingKey, token, dependencies.clock.now());
    if (check.ok) return check.claims;
    return check.reason === 'expired'
      ? problem(handshakeErrorCodes.expiredToken, 'The subscriber token has expired.', 'token')
      : problem(handshakeErrorCodes.invalidToken, 'The subscriber token is not valid.', 'token');
  } catch {
    return problem(handshakeErrorCodes.invalidToken, 'The subscriber token is not valid.', 'token');
  }
}

/**
 * Checks an upgrade request in the order of x-connection-rules.handshakeErrorCodes: the path, then the token, then
 * the token's stream. A valid token of another stream is invalid here, so no token reveals whether an id exists.
 */
export async function checkHandshake(
  dependencies: HandshakeDependencies,
  request: IncomingMessage,
): Promise<AcceptedHandshake | Refusal> {
  const url = new URL(request.url ?? '/', 'ws://service');
  const address = url.pathname.startsWith(`${dependencies.basePath}/`)
    ? url.pathname.slice(dependencies.basePath.length)
    : null;
  const parameters = address === null ? null : parseLiveFeedAddress(address);
  if (parameters === null || request.method !== 'GET')
    return problem(handshakeErrorCodes.notLiveFeedPath, `No live feed has the path ${url.pathname}.`);
  const claims = verifiedToken(dependencies, url.searchParams.get('token'));
  if (!('streamId' in claims)) return claims;
  if (claims.streamId !== parameters.streamId)
    return problem(
      handshakeErrorCodes.tokenOfAnotherStream,
      'The subscriber token is for another stream.',
      'token',
    );
  const stream = await dependencies.findStream(claims.accountId, claims.streamId);
  if (stream === null)
    return problem(handshakeErrorCodes.unknownStream, `No such stream: ${claims.streamId}.`, 'streamId');
  return { stream, tokenExpiresAt: claims.expiresAt };
}

/** How the WebSocket library words a refused Sec-WebSocket-Version (it gives no code of its own). */
const versionRefusal = /Sec-WebSocket-Version/i;
/** The protocol versions the WebSocket library speaks, which a version refusal names (RFC 6455 section 4.4). */
const spokenVersions = '13, 8';

/**
 * The refusal of an upgrade the WebSocket protocol refuses (RFC 6455 section 4.2.1: a bad Sec-WebSocket-Key, another
 * Sec-WebSocket-Version, a malformed extension offer): the REST API's malformed request, in the library's words.
 */
export function malformedHandshake(error: Error): Refusal {
  return problem(
    handshakeErrorCodes.malformedHandshake,
    `This is no WebSocket opening handshake: ${error.message}.`,
    undefined,
    versionRefusal.test(error.message) ? { 'Sec-WebSocket-Version': spokenVersions } : undefined,
  );
}

/**
 * The refusal of an upgrade over HTTP/1.0, which the WebSocket library would accept: RFC 6455 section 4.2.1 asks for
 * an HTTP/1.1 or higher GET. Null for any other request.
 */
export function oldHttpRefusal(
  request: Pick<IncomingMessage, 'httpVersionMajor' | 'httpVersionMinor'>,
): Refusal | null {
  const { httpVersionMajor: major, httpVersionMinor: minor } = request;
  return major > 1 || (major === 1 && minor >= 1)
    ? null
    : malformedHandshake(
        new Error(`the request is HTTP/${major}.${minor}, and a WebSocket upgrade needs HTTP/1.1`),
      );
}

/** Answers a refused upgrade like the REST API would: its status, the error envelope and a request id. */
export function refuseUpgrade(socket: Duplex, refusal: Refusal): void {
  const requestId = newId('RequestId');
  const body = JSON.stringify(envelope(refusal.toDetail(), requestId));
  const headers = Object.entries(refusal.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}\r\n` +
      headers.join('') +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `${requestIdHeader}: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

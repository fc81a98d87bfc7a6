import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { subscribeLiveFeed } from '../../generated/messages/live-feed.js';
import { errorCodes } from '../../generated/types/errors.js';
import { isErrorEnvelope } from '../../runtime/error-envelope.js';
import { WsHandshakeError } from '../../runtime/ws-subscriber.js';
import { createSubscriberToken } from '../services/subscriber-tokens.js';
import { handshakeErrorCodes } from './live-feed-rules.js';
import { type LiveFeedFixture, startLiveFeedFixture } from './testing/live-feed-fixture.js';

let fixture: LiveFeedFixture;
beforeAll(async () => {
  fixture = await startLiveFeedFixture();
});
afterAll(async () => {
  await fixture?.close();
});

/** Everything the service answers to `request` written on a fresh connection, until it closes. */
async function rawUpgrade(request: string): Promise<string> {
  const { connect } = await import('node:net');
  const port = Number(new URL(fixture.wsUrl).port);
  return new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
}

/** The refusal of a handshake through the generated subscriber: its HTTP status and error envelope. */
async function refusal(streamId: string, query: Record<string, string>) {
  const attempt = subscribeLiveFeed({
    url: fixture.wsUrl,
    parameters: { streamId },
    query,
    onMessage: () => {},
  });
  const error = await attempt.then(
    async (subscription) => {
      await subscription.close();
      throw new Error('the handshake was accepted');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WsHandshakeError);
  const { status, body } = error as WsHandshakeError;
  const parsed: unknown = JSON.parse(body);
  expect(isErrorEnvelope(parsed)).toBe(true);
  return { status, error: (parsed as { error: { code: string; type: string; requestId: string } }).error };
}

function expectCode(answer: Awaited<ReturnType<typeof refusal>>, code: keyof typeof errorCodes) {
  expect(answer.status).toBe(errorCodes[code].status);
  expect(answer.error.code).toBe(code);
  expect(answer.error.type).toBe((errorCodes[code] as { type?: string }).type);
  expect(answer.error.requestId).toMatch(/^req_/);
}

describe('live feed handshake (x-connection-rules.handshakeErrorCodes)', () => {
  it('accepts a token of the stream', async () => {
    const streamId = await fixture.newStream();
    const subscription = await subscribeLiveFeed({
      url: fixture.wsUrl,
      parameters: { streamId },
      query: { token: await fixture.token(streamId) },
      onMessage: () => {},
    });
    await subscription.close();
  });

  it('refuses a missing or empty token with missing_token', async () => {
    const streamId = await fixture.newStream();
    expectCode(await refusal(streamId, {}), handshakeErrorCodes.missingToken);
    expectCode(await refusal(streamId, { token: '' }), handshakeErrorCodes.missingToken);
  });

  it.each([
    ['garbage', 'sbt_garbage'],
    ['no prefix', 'hello'],
    ['payload without signature', `sbt_${Buffer.from('{"streamId":1}').toString('base64url')}`],
    ['not JSON', `sbt_${'x'.repeat(40)}.${'y'.repeat(43)}`],
    ['huge', `sbt_${'a'.repeat(8000)}`],
  ])('refuses a malformed token with invalid_token (%s)', async (_name, token) => {
    const streamId = await fixture.newStream();
    expectCode(await refusal(streamId, { token }), handshakeErrorCodes.invalidToken);
  });

  it('refuses a token signed with another key with invalid_token', async () => {
    const streamId = await fixture.newStream();
    const forged = await createSubscriberToken(
      { ...fixture.context, signingKey: new Uint8Array(randomBytes(32)) },
      streamId,
      {},
    );
    expectCode(await refusal(streamId, { token: forged.token }), handshakeErrorCodes.invalidToken);
  });

  it('refuses an expired token with token_expired', async () => {
    const streamId = await fixture.newStream();
    const token = await fixture.token(streamId, 60);
    fixture.clock.advance(60_001);
    expectCode(await refusal(streamId, { token }), handshakeErrorCodes.expiredToken);
  });

  it("refuses another stream's token with invalid_token, whether that stream exists or not", async () => {
    const [first, second] = [await fixture.newStream(), await fixture.newStream()];
    const token = await fixture.token(first);
    expectCode(await refusal(second, { token }), handshakeErrorCodes.tokenOfAnotherStream);
    expectCode(await refusal('stm_doesNotExist', { token }), handshakeErrorCodes.tokenOfAnotherStream);
    expect(handshakeErrorCodes.tokenOfAnotherStream).toBe('invalid_token');
  });

  it('refuses the token of a deleted stream with resource_missing', async () => {
    const streamId = await fixture.newStream();
    const token = await fixture.token(streamId);
    await fixture.store.streams.delete(fixture.context.accountId, streamId);
    expectCode(await refusal(streamId, { token }), handshakeErrorCodes.unknownStream);
  });

  it.each([
    '/devices/stm_a/other',
    '/',
    '/devices//live',
    '/v2/streams',
    '/devices/stm_a/live/extra',
    '/%zz',
  ])('answers an upgrade of %s with route_not_found', async (path) => {
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = new WebSocket(`${fixture.wsUrl}${path}?token=sbt_x`);
      socket.on('error', reject);
      socket.on('unexpected-response', (request, response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
    });
    expect(status.status).toBe(errorCodes.route_not_found.status);
    expect(JSON.parse(status.body).error.code).toBe(handshakeErrorCodes.notLiveFeedPath);
  });

  it.each([
    ['a Sec-WebSocket-Key that is not 16 bytes in base64', { key: 'c2hvcnQ=', version: '13', http: '1.1' }],
    [
      'a Sec-WebSocket-Version the service does not speak',
      { key: 'dGhlIHNhbXBsZSBub25jZQ==', version: '12', http: '1.1' },
    ],
    // RFC 6455 section 4.2.1: an HTTP/1.1 or higher GET; the WebSocket library would accept this one.
    [
      'an otherwise good handshake over HTTP/1.0',
      { key: 'dGhlIHNhbXBsZSBub25jZQ==', version: '13', http: '1.0' },
    ],
  ])('refuses a valid token with %s with request_malformed and the envelope', async (_case, handshake) => {
    const streamId = await fixture.newStream();
    const token = await fixture.token(streamId);
    const answer = await rawUpgrade(
      `GET /devices/${streamId}/live?token=${encodeURIComponent(token)} HTTP/${handshake.http}\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${handshake.key}\r\nSec-WebSocket-Version: ${handshake.version}\r\n\r\n`,
    );
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${errorCodes.request_malformed.status} `));
    expect(head).toMatch(/^content-type: application\/json/im);
    const parsed: unknown = JSON.parse(body);
    expect(isErrorEnvelope(parsed)).toBe(true);
    expect((parsed as { error: { code: string } }).error.code).toBe(handshakeErrorCodes.malformedHandshake);
    // RFC 6455 section 4.4: a version refusal names the versions the server speaks, 13 among them.
    if (handshake.version !== '13') expect(head).toMatch(/^sec-websocket-version: .*\b13\b/im);
  });

  it('survives garbage on the upgrade path and keeps serving', async () => {
    for (const garbage of [
      'GET /devices/stm_a/live HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
      'GET /devices/stm_a/live?token=sbt_x HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n',
    ]) {
      const answer = await rawUpgrade(garbage);
      expect(answer).toMatch(/^HTTP\/1\.1 (400|401)/);
    }
    const streamId = await fixture.newStream();
    const subscription = await subscribeLiveFeed({
      url: fixture.wsUrl,
      parameters: { streamId },
      query: { token: await fixture.token(streamId) },
      onMessage: () => {},
    });
    await subscription.close();
    expect(fixture.errors).toEqual([]);
  });
});

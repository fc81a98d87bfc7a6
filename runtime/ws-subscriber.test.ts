import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { compileAddressTemplate } from './address-template.js';
import { CodecError, jsonCodec, msgpackCodec } from './codecs/index.js';
import { channelUrl, subscribeChannel, WsHandshakeError, type WsSubscriberOptions } from './ws-subscriber.js';

type Frame = { n: number };
const channel = {
  address: compileAddressTemplate<{ id: string }>('/feeds/{id}', 'path'),
  decoders: [jsonCodec<Frame>('application/json'), msgpackCodec<Frame>('application/vnd.msgpack')],
};

describe('subscribeChannel', () => {
  let server: http.Server;
  let sockets: WebSocket[];
  let upgrades: string[];
  let baseUrl: string;
  beforeEach(async () => {
    sockets = [];
    upgrades = [];
    server = http.createServer();
    const hub = new WebSocketServer({ noServer: true });
    server.on('upgrade', (request, socket, head) => {
      upgrades.push(request.url ?? '');
      if (!request.url?.includes('token=good')) {
        socket.end(
          'HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{"error":"nope"}',
        );
        return;
      }
      hub.handleUpgrade(request, socket, head, (client) => sockets.push(client));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    for (const socket of sockets) socket.terminate();
    await new Promise((resolve) => server.close(resolve));
  });

  const subscribe = (overrides: Partial<WsSubscriberOptions<{ id: string }, Frame>> = {}) => {
    const messages: Frame[] = [];
    const errors: Error[] = [];
    const closes: number[] = [];
    const subscription = subscribeChannel(channel, {
      url: baseUrl,
      parameters: { id: 'a b' },
      query: { token: 'good' },
      onMessage: (message) => messages.push(message),
      onError: (error) => errors.push(error),
      onClose: (code) => closes.push(code),
      ...overrides,
    });
    return { subscription, messages, errors, closes };
  };

  it('connects to the channel path with the query and decodes text and binary frames', async () => {
    const { subscription, messages, closes } = subscribe();
    const opened = await subscription;
    expect(upgrades).toEqual(['/feeds/a%20b?token=good']);
    sockets[0]?.send(JSON.stringify({ n: 1 }));
    sockets[0]?.send(msgpackCodec('application/vnd.msgpack').encode({ n: 2 }), { binary: true });
    await vi.waitFor(() => expect(messages).toEqual([{ n: 1 }, { n: 2 }]));
    await opened.close();
    expect(closes).toEqual([1000]);
  });

  it('reports a frame that does not decode and keeps delivering', async () => {
    const { subscription, messages, errors } = subscribe();
    const opened = await subscription;
    sockets[0]?.send('{broken');
    sockets[0]?.send('{"n":3}');
    await vi.waitFor(() => expect(messages).toEqual([{ n: 3 }]));
    expect(errors).toEqual([expect.objectContaining({ reason: 'invalid-json' })]);
    expect(errors[0]).toBeInstanceOf(CodecError);
    await opened.close();
  });

  it('rejects a refused upgrade with the status and the body', async () => {
    const { subscription } = subscribe({ query: { token: 'bad' } });
    const refusal = await subscription.then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(WsHandshakeError);
    expect(refusal).toMatchObject({ status: 401, body: '{"error":"nope"}' });
  });

  it('does not reconnect unless asked', async () => {
    const { subscription, closes } = subscribe();
    await subscription;
    sockets[0]?.close(1011);
    await vi.waitFor(() => expect(closes).toEqual([1011]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upgrades).toHaveLength(1);
  });

  it('reconnects after a drop when asked, and delivers on the new connection', async () => {
    const { subscription, messages } = subscribe({ reconnect: { delayMs: 10, maxAttempts: 3 } });
    const opened = await subscription;
    sockets[0]?.close(1011);
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    sockets[1]?.send('{"n":4}');
    await vi.waitFor(() => expect(messages).toEqual([{ n: 4 }]));
    await opened.close();
  });
});

describe('channelUrl', () => {
  it.each([
    ['ws://h:1', '/d/x/live', {}, 'ws://h:1/d/x/live'],
    ['wss://h/base/', '/d/x/live', { token: 'sbt_a b' }, 'wss://h/base/d/x/live?token=sbt_a+b'],
    ['ws://h/', 'topic/x', {}, 'ws://h/topic/x'],
  ])('%s + %s', (base, path, query, url) => {
    expect(channelUrl(base, path, query)).toBe(url);
  });
});

describe('subscribeChannel and a server that sends at once', () => {
  it('delivers a frame that arrives in the same packet as the 101 answer', async () => {
    const server = http.createServer();
    const upgraded: Array<{ destroy(): void }> = [];
    server.on('upgrade', (request, socket) => {
      upgraded.push(socket);
      const accept = createHash('sha1')
        .update(`${request.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      const payload = Buffer.from('{"n":7}');
      const answer =
        'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Accept: ${accept}\r\n\r\n`;
      // One write: the answer and an unmasked text frame (FIN + opcode 1, then the length).
      socket.write(Buffer.concat([Buffer.from(answer), Buffer.from([0x81, payload.length]), payload]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const messages: Frame[] = [];
    const subscription = await subscribeChannel(channel, {
      url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
      parameters: { id: 'a' },
      onMessage: (message) => messages.push(message),
    });
    await vi.waitFor(() => expect(messages).toEqual([{ n: 7 }]));
    for (const socket of upgraded) socket.destroy();
    await subscription.close();
    await new Promise((resolve) => server.close(resolve));
  });
});

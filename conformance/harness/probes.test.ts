// The data-plane probes against real servers on 127.0.0.1: a node:http client for the receiver, a ws server for the
// subscriber, an Aedes broker for the device.
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { connectDevice, refusalCode } from './mqtt-device.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { isRefusal, subscribe } from './ws-subscriber.js';

describe('WebhookReceiver', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start({ host: '127.0.0.1', port: 0 }, null);
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('keeps the exact bytes, headers and arrival of each request, and answers per route and attempt', async () => {
    const { route, url } = receiver.route('flaky', (attempt) => ({ status: attempt === 1 ? 500 : 204 }));
    const body = '{"b": 1,  "a":2}';
    const first = await fetch(url, { method: 'POST', body, headers: { 'service-event': 'webhook.test' } });
    const second = await fetch(`${url}?x=1`, { method: 'POST', body });
    expect([first.status, second.status]).toEqual([500, 204]);
    const [one, two] = receiver.deliveries(route);
    expect(one?.rawBody.toString('utf8')).toBe(body);
    expect(one?.headers['service-event']).toBe('webhook.test');
    expect([one?.attempt, two?.attempt, two?.answer]).toEqual([1, 2, 204]);
    expect(two?.arrivedAt).toBeGreaterThanOrEqual(one?.arrivedAt ?? Number.POSITIVE_INFINITY);
  });

  it('redirects without following, and records when the sender gives up on a request it never answered', async () => {
    const { route, url } = receiver.route('hang', () => 'hang');
    const controller = new AbortController();
    const pending = fetch(url, { method: 'POST', body: '{}', signal: controller.signal }).catch(
      () => 'aborted',
    );
    await receiver.waitFor(route, (found) => found.length === 1, 2000);
    controller.abort();
    expect(await pending).toBe('aborted');
    await receiver.waitFor(route, (found) => found[0]?.closedAt !== null, 2000);
    expect(receiver.deliveries(route)[0]?.closedAt).not.toBeNull();
    const redirect = receiver.route('redirect', () => ({
      status: 302,
      location: 'http://127.0.0.1:9/elsewhere',
    }));
    const answer = await fetch(redirect.url, { method: 'POST', redirect: 'manual' });
    expect([answer.status, answer.headers.get('location')]).toEqual([302, 'http://127.0.0.1:9/elsewhere']);
  });

  it('answers 404 to a route it does not know', async () => {
    expect((await fetch(`${receiver.publicUrl}/unknown`, { method: 'POST' })).status).toBe(404);
  });
});

describe('subscribe', () => {
  let server: WebSocketServer;
  let base = '';
  beforeAll(async () => {
    server = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      verifyClient: (info, done) =>
        info.req.url?.includes('token=good')
          ? done(true)
          : done(false, 401, 'Unauthorized', { 'content-type': 'application/json' }),
    });
    server.on('connection', (socket) => {
      socket.send(JSON.stringify([{ type: 'status', seq: 1 }]));
      socket.send(
        JSON.stringify([
          { type: 'telemetry', seq: 2 },
          { type: 'telemetry', seq: 3 },
        ]),
      );
      setTimeout(() => socket.close(1000, 'deleted'), 50);
    });
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    base = `ws://127.0.0.1:${address.port}/devices/stm_x/live`;
  });
  afterAll(() => {
    server.close();
  });

  it('records frames and their messages in order, and the close code', async () => {
    const subscriber = await subscribe(`${base}?token=good`);
    if (isRefusal(subscriber)) throw new Error('refused');
    const closed = await subscriber.closed;
    expect(closed.code).toBe(1000);
    expect(subscriber.messages().map((message) => (message as { seq: number }).seq)).toEqual([1, 2, 3]);
    expect(subscriber.frames).toHaveLength(2);
  });

  it('returns a refused upgrade as its status', async () => {
    const refused = await subscribe(`${base}?token=bad`);
    expect(isRefusal(refused) && refused.status).toBe(401);
  });
});

describe('connectDevice', () => {
  let broker: Aedes;
  let server: Server;
  let url = '';
  beforeAll(async () => {
    broker = await Aedes.createBroker({
      authenticate: (_client, username, password, done) =>
        done(null, username === 'stm_a' && password?.toString() === 'key'),
    });
    server = createServer(broker.handle).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    url = `mqtt://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    server.close();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
  });

  it('publishes with QoS 1 and keeps the packets as evidence', async () => {
    const device = await connectDevice({ url, username: 'stm_a', password: 'key' });
    await device.publish('devices/stm_a', '{"ts":1,"values":{"a":1}}', { qos: 1 });
    await device.close();
    expect(device.packets.map((packet) => packet.cmd)).toEqual(expect.arrayContaining(['publish', 'puback']));
    expect(device.packets.find((packet) => packet.cmd === 'publish')).toMatchObject({
      direction: 'sent',
      topic: 'devices/stm_a',
      qos: 1,
    });
  });

  it('rejects a refused CONNECT with its return code', async () => {
    const error = await connectDevice({ url, username: 'stm_a', password: 'wrong' }).catch((each) => each);
    expect([4, 5]).toContain(refusalCode(error));
  });
});

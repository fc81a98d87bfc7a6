import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { liveFeedAddress } from '../../generated/messages/live-feed.js';
import { channelUrl } from '../../runtime/ws-subscriber.js';
import { createWebhook } from '../services/webhooks.js';
import { closeCodes } from './live-feed-rules.js';
import { type LiveFeedFixture, startLiveFeedFixture } from './testing/live-feed-fixture.js';
import { recordingSubscriber } from './testing/recording-subscriber.js';

let fixture: LiveFeedFixture;
beforeAll(async () => {
  // A short keep-alive so a dead peer is found within the test.
  fixture = await startLiveFeedFixture({ pingIntervalMilliseconds: 200 });
});
afterAll(async () => {
  await fixture?.close();
});

async function rawSocket(streamId: string, options: WebSocket.ClientOptions = {}) {
  const url = channelUrl(fixture.wsUrl, liveFeedAddress({ streamId }), {
    token: await fixture.token(streamId),
  });
  const socket = new WebSocket(url, options);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { socket, closed };
}

describe('live feed closing (x-connection-rules.closeCodes)', () => {
  it('closes with 1008 when the token expires during the connection, on the service clock', async () => {
    const streamId = await fixture.newStream();
    const subscriber = await recordingSubscriber(fixture.wsUrl, streamId, await fixture.token(streamId, 60));
    fixture.clock.advance(59_000);
    const other = await recordingSubscriber(fixture.wsUrl, streamId, await fixture.token(streamId, 3600));
    fixture.clock.advance(1_000);
    expect((await subscriber.closed).code).toBe(closeCodes.tokenExpired);
    await other.until((messages) =>
      messages.some((message) => message.type === 'status' && message.subscriberCount === 1),
    );
    await other.close();
  });

  it('closes every subscriber of a deleted stream with 1000 and leaves other streams alone', async () => {
    const [deleted, kept] = [await fixture.newStream(), await fixture.newStream()];
    const first = await recordingSubscriber(fixture.wsUrl, deleted, await fixture.token(deleted));
    const second = await recordingSubscriber(fixture.wsUrl, deleted, await fixture.token(deleted));
    const bystander = await recordingSubscriber(fixture.wsUrl, kept, await fixture.token(kept));
    fixture.liveFeed.streamDeleted(deleted);
    expect((await first.closed).code).toBe(closeCodes.streamDeleted);
    expect((await second.closed).code).toBe(closeCodes.streamDeleted);
    fixture.publishTelemetry(kept, 5);
    await bystander.until(
      (messages) => messages.filter((message) => message.type === 'telemetry').length === 5,
    );
    await bystander.close();
    // A deleted stream's sequence is forgotten.
    expect(
      fixture.bus.publish({ type: 'status', streamId: deleted, status: 'idle', subscriberCount: 0 }).seq,
    ).toBe(1);
  });

  it('closes with 1011 when a message of the stream cannot be sent, and keeps serving other streams', async () => {
    const [broken, fine] = [await fixture.newStream(), await fixture.newStream()];
    const victim = await recordingSubscriber(fixture.wsUrl, broken, await fixture.token(broken));
    const bystander = await recordingSubscriber(fixture.wsUrl, fine, await fixture.token(fine));
    const errorsBefore = fixture.errors.length;
    fixture.bus.publish({
      type: 'telemetry',
      streamId: broken,
      receivedAt: 1,
      sample: { ts: 1, values: { v: 10n as unknown as number } },
    });
    expect((await victim.closed).code).toBe(closeCodes.serviceFailed);
    expect(fixture.errors.length).toBe(errorsBefore + 1);
    fixture.publishTelemetry(fine, 3);
    await bystander.until(
      (messages) => messages.filter((message) => message.type === 'telemetry').length === 3,
    );
    await bystander.close();
  });

  it('closes with 1003 when a subscriber sends data, and with 1009 when its frame is oversized', async () => {
    const streamId = await fixture.newStream();
    const chatty = await rawSocket(streamId);
    chatty.socket.send('hello');
    expect(await chatty.closed).toBe(closeCodes.subscriberSentData);
    const binary = await rawSocket(streamId);
    binary.socket.send(Buffer.from([1, 2, 3]));
    expect(await binary.closed).toBe(closeCodes.subscriberSentData);
    const flooding = await rawSocket(streamId);
    flooding.socket.send('x'.repeat(1_000_000));
    expect(await flooding.closed).toBe(closeCodes.subscriberFrameTooLarge);
    await expect.poll(() => fixture.liveFeed.subscriberCount(streamId)).toBe(0);
  });

  it('drops a peer that stops answering pings', async () => {
    const streamId = await fixture.newStream();
    const silent = await rawSocket(streamId, { autoPong: false });
    const answering = await rawSocket(streamId);
    // The server drops it without a close frame; the client sees an abnormal closure.
    expect(await silent.closed).toBe(1006);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    expect(fixture.liveFeed.subscriberCount(streamId)).toBe(1);
    answering.socket.close();
    await answering.closed;
  });

  it('records subscriber.connected and subscriber.disconnected with the Subscriber object', async () => {
    const streamId = await fixture.newStream();
    const webhook = await createWebhook(fixture.context, {
      url: 'https://hooks.example.com/live',
      events: ['subscriber.connected', 'subscriber.disconnected'],
    });
    const subscriber = await recordingSubscriber(fixture.wsUrl, streamId, await fixture.token(streamId));
    await subscriber.close();
    const accountId = fixture.context.accountId;
    await expect
      .poll(
        async () =>
          (await fixture.store.deliveries.list(accountId, { limit: 10 }, { webhookId: webhook.id }))?.items,
      )
      .toHaveLength(2);
    const page = await fixture.store.deliveries.list(accountId, { limit: 10 }, { webhookId: webhook.id });
    const events = await Promise.all(
      (page?.items ?? []).reverse().map((delivery) => fixture.store.events.get(accountId, delivery.eventId)),
    );
    expect(events.map((event) => event?.type)).toEqual(['subscriber.connected', 'subscriber.disconnected']);
    const [connected, disconnected] = events.map(
      (event) => (event?.data as { object: Record<string, unknown> } | undefined)?.object,
    );
    expect(connected).toMatchObject({ object: 'subscriber', streamId, disconnectedAt: null });
    expect(connected?.id).toMatch(/^sub_/);
    expect(disconnected).toMatchObject({ id: connected?.id, streamId, connectedAt: connected?.connectedAt });
    expect(disconnected?.disconnectedAt).toEqual(expect.any(String));
  });
});

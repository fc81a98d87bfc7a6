import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { liveFeedAddress } from '../../generated/messages/live-feed.js';
import { validateLiveFrame } from '../../generated/validators/index.js';
import { channelUrl } from '../../runtime/ws-subscriber.js';
import type { LiveMessage } from './fanout-bus.js';
import { closeCodes, maxBufferedBytes, subscriberCountCoalesceMilliseconds } from './live-feed-rules.js';
import { type LiveFeedFixture, startLiveFeedFixture } from './testing/live-feed-fixture.js';
import { recordingSubscriber } from './testing/recording-subscriber.js';

let fixture: LiveFeedFixture;
beforeAll(async () => {
  fixture = await startLiveFeedFixture();
});
afterAll(async () => {
  await fixture?.close();
});

/** Publishes `total` messages in bursts, one burst per event-loop turn, as a device's messages arrive. */
async function publishInBursts(streamId: string, total: number, burst: number) {
  for (let sent = 0; sent < total; sent += burst) {
    fixture.publishTelemetry(streamId, Math.min(burst, total - sent), sent);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The subscriberCount of the last status message, if any. */
function lastCount(messages: LiveMessage[]): number | undefined {
  return messages.findLast((message) => message.type === 'status')?.subscriberCount;
}

function expectContiguous(messages: LiveMessage[]) {
  const first = messages[0]?.seq ?? 0;
  expect(messages.map((message) => message.seq)).toEqual(messages.map((_message, index) => first + index));
}

async function rawSocket(streamId: string, token: string, options: WebSocket.ClientOptions = {}) {
  const url = channelUrl(fixture.wsUrl, liveFeedAddress({ streamId }), { token });
  const socket = new WebSocket(url, options);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  return { socket, closed };
}

describe('live feed delivery', () => {
  it('delivers 10,000 messages to several subscribers exactly once, in order, contiguous, in valid batched frames', async () => {
    const streamId = await fixture.newStream();
    const subscribers = await Promise.all(
      [1, 2, 3].map(async () => recordingSubscriber(fixture.wsUrl, streamId, await fixture.token(streamId))),
    );
    const total = 10_000;
    await Promise.all(
      subscribers.map((subscriber) =>
        subscriber.until((messages) => lastCount(messages) === subscribers.length),
      ),
    );
    await publishInBursts(streamId, total, 50);
    for (const subscriber of subscribers) {
      await subscriber.until(
        (messages) => messages.filter((message) => message.type === 'telemetry').length >= total,
      );
      expectContiguous(subscriber.messages);
      expect(
        subscriber.telemetry().map((message) => message.type === 'telemetry' && message.sample.ts),
      ).toEqual(Array.from({ length: total }, (_value, index) => index));
      for (const frame of subscriber.frames) expect(validateLiveFrame(frame).ok).toBe(true);
      // Bursts of 50 published in one turn leave as one frame, not 50.
      expect(subscriber.frames.length).toBeLessThan(total / 10);
      expect(Math.max(...subscriber.frames.map((frame) => frame.length))).toBeGreaterThan(1);
    }
    await Promise.all(subscribers.map((subscriber) => subscriber.close()));
  });

  it('sends one message per frame to a subscriber that keeps up with single messages', async () => {
    const streamId = await fixture.newStream();
    const subscriber = await recordingSubscriber(fixture.wsUrl, streamId, await fixture.token(streamId));
    await subscriber.until((messages) => messages.length >= 1);
    for (let index = 0; index < 20; index++) {
      fixture.publishTelemetry(streamId, 1, index);
      await subscriber.until((messages) => messages.length >= index + 2);
    }
    expect(subscriber.frames.every((frame) => frame.length === 1)).toBe(true);
    await subscriber.close();
  });

  it('tells subscribers the subscriber count with status messages and stores it on the stream', async () => {
    const streamId = await fixture.newStream();
    const first = await recordingSubscriber(fixture.wsUrl, streamId, await fixture.token(streamId));
    await first.until((messages) => messages.length >= 1);
    expect(first.messages[0]).toMatchObject({ type: 'status', status: 'idle', subscriberCount: 1 });
    const second = await recordingSubscriber(fixture.wsUrl, streamId, await fixture.token(streamId));
    await first.until((messages) =>
      messages.some((message) => message.type === 'status' && message.subscriberCount === 2),
    );
    await second.close();
    await first.until((messages) => {
      const last = messages.at(-1);
      return last?.type === 'status' && last.subscriberCount === 1;
    });
    await expect.poll(async () => (await fixture.store.streams.getById(streamId))?.subscriberCount).toBe(1);
    expectContiguous(first.messages);
    await first.close();
    await expect.poll(async () => (await fixture.store.streams.getById(streamId))?.subscriberCount).toBe(0);
    expect(fixture.liveFeed.subscriberCount(streamId)).toBe(0);
  });

  it('coalesces the counts of a crowd joining into one status message per window, ending at the true count', async () => {
    const streamId = await fixture.newStream();
    const token = await fixture.token(streamId);
    const first = await recordingSubscriber(fixture.wsUrl, streamId, token);
    await first.until((messages) => lastCount(messages) === 1);
    const started = performance.now();
    const crowd = await Promise.all(
      Array.from({ length: 50 }, () => recordingSubscriber(fixture.wsUrl, streamId, token)),
    );
    const everyone = [first, ...crowd];
    await Promise.all(everyone.map((each) => each.until((messages) => lastCount(messages) === 51)));
    const elapsed = performance.now() - started;
    const statuses = first.messages.filter((message) => message.type === 'status').length - 1;
    // One message opens each window and one more may close it: never one per newcomer.
    expect(statuses).toBeLessThanOrEqual(Math.ceil(elapsed / subscriberCountCoalesceMilliseconds) + 1);
    expect(statuses).toBeLessThan(crowd.length);
    expectContiguous(first.messages);
    await Promise.all(everyone.map((each) => each.close()));
  });

  it('drops a subscriber that stops reading with 1013 while another receives everything', async () => {
    const streamId = await fixture.newStream();
    const reader = await recordingSubscriber(fixture.wsUrl, streamId, await fixture.token(streamId));
    const stalled = await rawSocket(streamId, await fixture.token(streamId));
    stalled.socket.pause();
    const total = 4_000;
    // 64 channels with long names make a message of about 4 kB: 16 MB, more than loopback's socket buffers and the
    // 1 MiB the stalled subscriber may fall behind.
    const values = Object.fromEntries(
      Array.from({ length: 64 }, (_value, index) => [`channel_${String(index).padStart(50, '0')}`, index]),
    );
    for (let index = 0; index < total; index++) {
      fixture.bus.publish({
        type: 'telemetry',
        streamId,
        receivedAt: Date.now(),
        sample: { ts: index, values },
      });
      if (index % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
    }
    await reader.until(
      (messages) => messages.filter((message) => message.type === 'telemetry').length >= total,
    );
    expectContiguous(reader.messages);
    stalled.socket.resume();
    expect(await stalled.closed).toBe(closeCodes.subscriberTooSlow);
    expect(maxBufferedBytes).toBe(1_048_576);
    await reader.close();
  });

  it('serves 1,000 subscribers of one stream', async () => {
    const streamId = await fixture.newStream();
    const token = await fixture.token(streamId);
    const url = channelUrl(fixture.wsUrl, liveFeedAddress({ streamId }), { token });
    const received = new Array<number>(1000).fill(0);
    const open = (index: number) =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(url);
        socket.on('message', (data) => {
          const frame = JSON.parse(String(data)) as Array<{ type: string }>;
          received[index] =
            (received[index] ?? 0) + frame.filter((message) => message.type === 'telemetry').length;
        });
        socket.once('open', () => resolve(socket));
        socket.once('error', reject);
      });
    const sockets: WebSocket[] = [];
    // A hundred handshakes at a time, as clients of a busy page would arrive.
    for (let index = 0; index < received.length; index += 100)
      sockets.push(
        ...(await Promise.all(Array.from({ length: 100 }, (_value, offset) => open(index + offset)))),
      );
    expect(fixture.liveFeed.subscriberCount(streamId)).toBe(1000);
    fixture.publishTelemetry(streamId, 100);
    await expect.poll(() => received.every((count) => count === 100), { timeout: 30_000 }).toBe(true);
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise((resolve) => {
            socket.once('close', resolve);
            socket.close();
          }),
      ),
    );
    await expect.poll(() => fixture.liveFeed.subscriberCount(streamId), { timeout: 30_000 }).toBe(0);
    // The 2,000 subscriber events are written off the delivery path; the fixture's close waits for them.
  }, 300_000);
});

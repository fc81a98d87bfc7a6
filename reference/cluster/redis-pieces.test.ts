import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import type { LiveMessage } from '../fanout/fanout-bus.js';
import { newStoreCaches } from '../storage/cached-store.js';
import type { ApiKeyRow } from '../storage/rows.js';
import { startCacheInvalidation } from './cache-invalidation.js';
import { ChannelSubscriptions } from './channel-subscriptions.js';
import { openRedisConnections, type RedisConnections } from './redis-connections.js';
import { RedisFanoutBus } from './redis-fanout-bus.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import { RedisStreamLeases } from './redis-stream-leases.js';
import { type RedisServer, startRedisServer } from './testing/redis-server.js';

const server = await startRedisServer();
const available = !('unavailable' in server);
if ('unavailable' in server) console.warn(`skipping the Redis tests: ${server.unavailable}`);

/** Two nodes' worth of connections to the same Redis. */
const nodes: { redis: RedisConnections; subscriptions: ChannelSubscriptions }[] = [];
const node = (index: number) => {
  const found = nodes[index];
  if (found === undefined) throw new Error('no such node');
  return found;
};
const eventually = async (check: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.skipIf(!available)('the Redis pieces of several nodes (ADR 0023)', () => {
  beforeAll(async () => {
    const { url } = server as Exclude<RedisServer, { unavailable: string }>;
    for (const name of ['a', 'b']) {
      const redis = await openRedisConnections(url, name);
      nodes.push({
        redis,
        subscriptions: new ChannelSubscriptions(redis.subscriber, (error) => console.error(error)),
      });
    }
  });
  afterAll(async () => {
    for (const { redis } of nodes) await redis.close();
    if (!('unavailable' in server)) await server.stop();
  });

  it('fan-out: subscribers on both nodes see every message of a stream, in one order, numbered alike', async () => {
    const [busA, busB] = [0, 1].map(
      (index) => new RedisFanoutBus(node(index).redis.commands, node(index).subscriptions),
    );
    if (busA === undefined || busB === undefined) throw new Error('no bus');
    const heard: LiveMessage[][] = [[], []];
    busA.subscribe('stm_order', (message) => heard[0]?.push(message));
    busB.subscribe('stm_order', (message) => heard[1]?.push(message));
    const local: LiveMessage[] = [];
    busA.subscribeAll((message) => local.push(message));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the SUBSCRIBE round trips
    for (let index = 0; index < 500; index += 1) {
      busA.publish({
        type: 'telemetry',
        streamId: 'stm_order',
        receivedAt: index,
        sample: { ts: index, values: {} },
      });
      // Another node publishes to the same stream now and then (subscriber counts).
      if (index % 100 === 0)
        busB.publish({ type: 'status', streamId: 'stm_order', status: 'live', subscriberCount: index });
    }
    await eventually(() => heard.every((messages) => messages.length === 505));
    const seqs = heard[0]?.map((message) => message.seq);
    expect(seqs).toEqual(Array.from({ length: 505 }, (_, index) => index + 1));
    expect(heard[1]).toEqual(heard[0]);
    const samples = heard[0]?.flatMap((message) =>
      message.type === 'telemetry' ? [message.receivedAt] : [],
    );
    expect(samples).toEqual(Array.from({ length: 500 }, (_, index) => index));
    // subscribeAll hears this node's own publications only (recording happens where the device is).
    expect(local).toHaveLength(500);
    await Promise.all([busA.close(), busB.close()]);
  });

  it('device leases: one node at a time; released or expired leases are free again', async () => {
    const options = { leaseMilliseconds: 300 };
    const a = new RedisStreamLeases(node(0).redis.commands, { ...options, nodeId: 'a' });
    const b = new RedisStreamLeases(node(1).redis.commands, { ...options, nodeId: 'b' });
    expect(await a.acquire('stm_lease')).toBe(true);
    expect(await b.acquire('stm_lease')).toBe(false);
    expect(await a.acquire('stm_lease')).toBe(false);
    // A's refreshes keep it past several lifetimes.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await b.holder('stm_lease')).toBe('a');
    await b.release('stm_lease'); // not b's: nothing happens
    expect(await a.holder('stm_lease')).toBe('a');
    await a.release('stm_lease');
    expect(await b.acquire('stm_lease')).toBe(true);
    // b dies (stops refreshing): the lease ends within its lifetime.
    b.close();
    const deadline = Date.now() + 2000;
    while ((await a.holder('stm_lease')) !== null && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await a.holder('stm_lease')).toBeNull();
    expect(await a.acquire('stm_lease')).toBe(true);
    a.close();
  });

  it('rate limit: one fixed window per key shared by every node, same answers as the in-process one', async () => {
    const clock = new ManualClock(Date.parse('2026-11-25T00:00:00Z'));
    const a = new RedisRateLimiter(node(0).redis.commands, clock, 60, 1);
    const b = new RedisRateLimiter(node(1).redis.commands, clock, 60, 1);
    const decisions = [];
    for (let index = 0; index < 6; index += 1)
      decisions.push(await (index % 2 === 0 ? a : b).take('key_shared', 5));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions.map((decision) => decision.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions[5]).toMatchObject({ limit: 5, windowSeconds: 60, resetSeconds: 60 });
    expect((await a.take('key_other', 5)).allowed).toBe(true);
    clock.advance(30_000);
    expect(await b.take('key_shared', 5)).toMatchObject({ allowed: false, resetSeconds: 30 });
    clock.advance(30_000);
    expect(await b.take('key_shared', 5)).toMatchObject({ allowed: true, remaining: 4, resetSeconds: 60 });
  });

  it('rate windows: peek answers as take would, counts nothing, and sees the other node’s window', async () => {
    const clock = new ManualClock();
    const a = new RedisRateLimiter(node(0).redis.commands, clock, 60, 1);
    const b = new RedisRateLimiter(node(1).redis.commands, clock, 60, 1);
    const key = 'address:192.0.2.9';
    expect(await b.peek(key, 2)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
    expect(await b.peek(key, 2)).toMatchObject({ allowed: true, remaining: 2 });
    await a.take(key, 2);
    clock.advance(10_000);
    expect(await b.peek(key, 2)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 50 });
    await a.take(key, 2);
    expect(await b.peek(key, 2)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 50 });
    clock.advance(50_000);
    expect(await b.peek(key, 2)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it('cache invalidation: a key changed on one node leaves every other node’s cache', async () => {
    const caches = [newStoreCaches(), newStoreCaches()];
    const [cachesA, cachesB] = caches as [
      ReturnType<typeof newStoreCaches>,
      ReturnType<typeof newStoreCaches>,
    ];
    const [a, b] = await Promise.all(
      [0, 1].map((index) =>
        startCacheInvalidation(
          node(index).redis.commands,
          node(index).redis.subscriber,
          node(index).subscriptions,
          caches[index] ?? newStoreCaches(),
          `node-${index}`,
        ),
      ),
    );
    const row = { id: 'key_1', hash: 'hash_1' } as ApiKeyRow;
    cachesB.keysByHash.set('hash_1', row);
    cachesB.keysByHash.set('hash_2', { ...row, id: 'key_2', hash: 'hash_2' });
    cachesB.accounts.set('acct_1', { unknown: true });
    cachesA.keysByHash.set('hash_1', row);
    a?.announce({ apiKeyId: 'key_1' });
    a?.announce({ accountId: 'acct_1' });
    await eventually(() => !cachesB.keysByHash.has('hash_1') && !cachesB.accounts.has('acct_1'));
    expect(cachesB.keysByHash.has('hash_2')).toBe(true);
    // The announcing node's own cache is the store wrapper's to keep; announcements do not echo back.
    expect(cachesA.keysByHash.has('hash_1')).toBe(true);
    a?.close();
    b?.close();
  });
});

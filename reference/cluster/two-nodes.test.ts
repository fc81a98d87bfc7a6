import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { accountPlanMembers, apiPolicies, channelFacts } from '../../generated/types/facts.js';
import { isoTime } from '../clock.js';
import { startReceiver } from '../delivery/testing/receiver.js';
import { createApiKey } from '../seed.js';
import { openStore } from '../storage/open-store.js';
import { openChangeAnnouncer } from './change-announcer.js';
import { redisKeys } from './redis-keys.js';
import { freshLoopbackAddress, requestFrom } from './testing/from-address.js';
import { connectDevice, createStream, eventually, openFeed, topicOf } from './testing/live-clients.js';
import { startTopology } from './testing/two-nodes.js';

// Keys stay cached for a minute here, so only the cross-node invalidation can explain a refusal within a second.
const topology = await startTopology({ keyCacheMilliseconds: 60_000, deviceLeaseMilliseconds: 1000 });
if ('unavailable' in topology) console.warn(`skipping the two-node tests: ${topology.unavailable}`);
const running = () => {
  if ('unavailable' in topology) throw new Error(topology.unavailable);
  return topology;
};

/** How many nodes are subscribed to a stream's Redis channel now. */
async function subscribedNodes(streamId: string): Promise<number> {
  const redis = new Redis(running().redisUrl);
  try {
    const [, subscribers] = (await redis.pubsub('NUMSUB', redisKeys.liveChannel(streamId))) as [
      string,
      number,
    ];
    return subscribers;
  } finally {
    redis.disconnect();
  }
}

describe.skipIf('unavailable' in topology)('two nodes on PostgreSQL and Redis (ADR 0023)', () => {
  afterAll(() => running().stop());

  it('a device on node A: subscribers on A and on B receive every sample in order, numbered alike', async () => {
    const [a, b] = running().nodes;
    const stream = await createStream(a);
    const [feedA, feedB] = [await openFeed(a, stream.id), await openFeed(b, stream.id)];
    // A node lets a subscriber in only once it hears the stream from Redis: nothing published from now on is missed.
    expect(await subscribedNodes(stream.id)).toBe(2);
    const device = await connectDevice(a, stream);
    const count = 200;
    for (let index = 0; index < count; index += 1)
      await device.publishAsync(topicOf(stream.id), JSON.stringify({ ts: index, values: { rpm: index } }), {
        qos: 1,
      });
    await eventually(() => feedA.telemetry().length === count && feedB.telemetry().length === count);
    for (const feed of [feedA, feedB]) {
      expect(feed.telemetry().map((message) => message.sample.ts)).toEqual(
        Array.from({ length: count }, (_, i) => i),
      );
      const seqs = feed.messages.map((message) => message.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(seqs.length);
    }
    // The same sample carries the same seq on both nodes.
    expect(feedB.telemetry().map((message) => message.seq)).toEqual(
      feedA.telemetry().map((message) => message.seq),
    );
    expect(feedB.messages.some((message) => message.type === 'status' && message.status === 'live')).toBe(
      true,
    );
    await device.endAsync();
    // idle reaches B's subscriber too (after the last sample), and the stream reads idle through either node.
    const lastSample = feedB.telemetry().at(-1)?.seq ?? 0;
    const idleAfter = () =>
      feedB.messages.some(
        (message) => message.type === 'status' && message.status === 'idle' && message.seq > lastSample,
      );
    await eventually(idleAfter);
    expect((await b.api('GET', `/streams/${stream.id}`)).body.status).toBe('idle');
    feedA.close();
    feedB.close();
  });

  it('subscriberCount is counted over both nodes: one subscriber on A and one on B make 2, read through either', async () => {
    const [a, b] = running().nodes;
    const stream = await createStream(a);
    const feedA = await openFeed(a, stream.id);
    const feedB = await openFeed(b, stream.id);
    const lastCount = (feed: typeof feedA) =>
      feed.messages.filter((message) => message.type === 'status').at(-1)?.subscriberCount;
    await eventually(() => lastCount(feedA) === 2 && lastCount(feedB) === 2);
    for (const node of [a, b])
      await eventually(
        async () => (await node.api('GET', `/streams/${stream.id}`)).body.subscriberCount === 2,
      );
    feedB.close();
    await eventually(() => lastCount(feedA) === 1);
    for (const node of [a, b])
      await eventually(
        async () => (await node.api('GET', `/streams/${stream.id}`)).body.subscriberCount === 1,
      );
    feedA.close();
    await eventually(async () => (await b.api('GET', `/streams/${stream.id}`)).body.subscriberCount === 0);
  });

  it('a second device connection on node B is refused while A holds the stream, accepted once A’s is gone', async () => {
    const [a, b] = running().nodes;
    const stream = await createStream(a);
    const first = await connectDevice(a, stream);
    expect((await b.api('GET', `/streams/${stream.id}`)).body.status).toBe('live');
    await expect(connectDevice(b, stream)).rejects.toMatchObject({ code: 0x87 });
    await first.endAsync();
    await eventually(async () => (await b.api('GET', `/streams/${stream.id}`)).body.status === 'idle');
    const second = await connectDevice(b, stream);
    expect((await a.api('GET', `/streams/${stream.id}`)).body.status).toBe('live');
    await second.endAsync();
  });

  it('a stream deleted through node A closes its subscribers on both nodes with the spec’s close code', async () => {
    const [a, b] = running().nodes;
    const stream = await createStream(a);
    const [feedA, feedB] = [await openFeed(a, stream.id), await openFeed(b, stream.id)];
    expect((await a.api('DELETE', `/streams/${stream.id}`)).status).toBe(200);
    const code = channelFacts.liveFeed.connectionRules.closeCodes.streamDeleted.code;
    const within = (feed: typeof feedA) =>
      Promise.race([feed.closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 5000))]);
    expect(await Promise.all([within(feedA), within(feedB)])).toEqual([code, code]);
  });

  it('a report feed cached on node B is not answered 304 once a record was published through node A', async () => {
    const [a, b] = running().nodes;
    const report = (await a.api('POST', '/reports', { title: 'Cross-node feed' })).body;
    const publish = async (title: string) => {
      const samples = [{ ts: 1, values: { rpm: 1 } }];
      const record = (await a.api('POST', `/reports/${report.id}/records`, { title, samples })).body;
      expect((await a.api('POST', `/reports/${report.id}/records/${record.id}/publish`)).status).toBe(200);
    };
    await publish('first run');
    // Node B renders and caches the feed; asked again with its ETag, it answers 304 from the cache.
    const feedUrl = `${b.service.urls.baseUrl}/reports/${report.id}/feed.xml`;
    const before = await fetch(feedUrl);
    const etag = before.headers.get('etag') ?? '';
    expect([before.status, await before.text()]).toEqual([200, expect.stringContaining('first run')]);
    expect((await fetch(feedUrl, { headers: { 'if-none-match': etag } })).status).toBe(304);
    await publish('second run');
    // At once, not after the cache's age bound: the write's answer left node A after every node could see it.
    const after = await fetch(feedUrl, { headers: { 'if-none-match': etag } });
    expect([after.status, await after.text()]).toEqual([200, expect.stringContaining('second run')]);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(
      (await fetch(feedUrl, { headers: { 'if-none-match': after.headers.get('etag') ?? '' } })).status,
    ).toBe(304);
  });

  it('the bounded feed holds the newest published records, whichever node created and published them', async () => {
    const [a, b] = running().nodes;
    const nodes = [a, b];
    const bound = apiPolicies.limits.maxFeedItems;
    const report = (await a.api('POST', '/reports', { title: 'Bounded feed, two nodes' })).body;
    const count = bound + 2;
    // Created 8 at a time through both nodes, as the conformance check does: their insertion order is the nodes'.
    const created: { id: string; title: string }[] = [];
    for (let first = 0; first < count; first += 8) {
      const batch = Array.from({ length: Math.min(8, count - first) }, (_, offset) => first + offset);
      const records = await Promise.all(
        batch.map(async (index) => {
          const title = `bounded ${index}`;
          const body = { title, samples: [{ ts: index, values: { rpm: index } }] };
          const answer = await nodes[index % 2]?.api('POST', `/reports/${report.id}/records`, body);
          return { id: answer?.body.id as string, title };
        }),
      );
      created.push(...records);
    }
    // Published one at a time, alternating nodes, in the reverse of creation: "newest" is the last published.
    const order = [...created].reverse();
    const feedOf = async (node: (typeof nodes)[number]) => {
      const answer = await fetch(`${node.service.urls.baseUrl}/reports/${report.id}/feed.xml`);
      const xml = await answer.text();
      return [...xml.matchAll(/<title>(bounded \d+)<\/title>/g)].map((match) => match[1]);
    };
    for (const [index, record] of order.entries()) {
      const publishing = nodes[index % 2];
      const answer = await publishing?.api('POST', `/reports/${report.id}/records/${record.id}/publish`);
      expect(answer?.status).toBe(200);
      if (index + 1 < bound) continue;
      // From the bound on, each node serves exactly the newest `bound` published, newest first.
      const newest = order
        .slice(Math.max(0, index + 1 - bound), index + 1)
        .map((each) => each.title)
        .reverse();
      for (const node of nodes) expect(await feedOf(node)).toEqual(newest);
    }
  });

  it('a key revoked through node A is refused by node B at once (its cache would keep it a minute)', async () => {
    const [a, b] = running().nodes;
    const { service } = a;
    const accountId = running().seeded.accounts.paid.accountId;
    const created = await createApiKey(
      service.dependencies.store,
      service.dependencies.clock,
      accountId,
      'secret',
    );
    for (const node of [a, b])
      expect((await node.api('GET', '/streams', undefined, created.key)).status).toBe(200);
    await service.dependencies.store.apiKeys.revoke(created.id, isoTime(service.dependencies.clock));
    const revokedAt = Date.now();
    await eventually(
      async () => (await b.api('GET', '/streams', undefined, created.key)).status === 401,
      1000,
    );
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });

  it('a key rolled by `npm run keys` (another process, same announcements) is refused by both nodes', async () => {
    const [a, b] = running().nodes;
    const { service } = a;
    const accountId = running().seeded.accounts.paid.accountId;
    const created = await createApiKey(
      service.dependencies.store,
      service.dependencies.clock,
      accountId,
      'secret',
    );
    for (const node of [a, b])
      expect((await node.api('GET', '/streams', undefined, created.key)).status).toBe(200);
    const opened = await openStore({ kind: 'postgres', connectionString: running().postgresUrl });
    const announcer = await openChangeAnnouncer(running().redisUrl, 'keys-cli-test');
    await announcer.wrap(opened).apiKeys.revoke(created.id, isoTime(service.dependencies.clock));
    await announcer.close();
    await opened.close();
    for (const node of [a, b])
      await eventually(
        async () => (await node.api('GET', '/streams', undefined, created.key)).status === 401,
        1000,
      );
  });

  it('the rate window of a key is shared: requests spread over both nodes are admitted up to the plan’s limit once', async () => {
    const { nodes, seeded } = running();
    const key = seeded.accounts.free.keys.secret.key;
    const limit = accountPlanMembers.free.requestsPerMinute;
    const statuses: number[] = [];
    for (let index = 0; index < limit + 4; index += 1)
      statuses.push((await nodes[index % 2 === 0 ? 0 : 1].api('GET', '/streams', undefined, key)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
    expect(statuses.slice(limit)).toEqual([429, 429, 429, 429]);
    const refused = await nodes[1].api('GET', '/streams', undefined, key);
    expect(refused.headers.get('ratelimit')).toMatch(/r=0/);
  });

  it('the per-address window is shared: requests without a valid key spread over both nodes are admitted once', async () => {
    const [a, b] = running().nodes;
    const limit = apiPolicies.rateLimit.perAddress.requestsPerWindow;
    const address = freshLoopbackAddress();
    const headers = { authorization: `Bearer sk_live_${'x'.repeat(40)}` };
    const statuses: number[] = [];
    for (let index = 0; index < limit + 2; index += 1) {
      const node = index % 2 === 0 ? a : b;
      statuses.push((await requestFrom(address, `${node.service.urls.baseUrl}/streams`, { headers })).status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(limit);
    expect(statuses.slice(limit)).toEqual([429, 429]);
    // The token endpoint of either node refuses the address before checking anything (the peek is shared too).
    for (const node of [a, b]) {
      const token = await requestFrom(address, `${node.service.urls.authUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: 'rt_GuessedGuessedGuessed',
          client_id: running().seeded.oauthClient.clientId,
        }).toString(),
      });
      expect(token.status).toBe(429);
      expect(Number(token.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another address is untouched.
    const other = await requestFrom(freshLoopbackAddress(), `${b.service.urls.baseUrl}/streams`, { headers });
    expect(other.status).toBe(401);
  });

  it('webhook deliveries from both nodes: every event is sent once, none twice', async () => {
    const [a, b] = running().nodes;
    const receiver = await startReceiver();
    try {
      const webhook = await a.api('POST', '/webhooks', { url: receiver.url, events: ['webhook.test'] });
      expect(webhook.status).toBe(201);
      const events = 24;
      for (let index = 0; index < events; index += 1)
        expect(
          (await (index % 2 === 0 ? a : b).api('POST', `/webhooks/${webhook.body.id}/test`)).status,
        ).toBeLessThan(300);
      await receiver.waitFor(events, 20_000);
      // Both dispatchers keep polling a while longer: nothing may arrive twice.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const ids = receiver.received.map((entry) => entry.headers['service-delivery-id']);
      expect(ids).toHaveLength(events);
      expect(new Set(ids).size).toBe(events);
    } finally {
      await receiver.close();
    }
  });
});

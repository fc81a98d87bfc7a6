// Issue 12, item 1: the public feed is bounded to a window, validated with ETag (304) and cacheable, and is rebuilt
// only once its account changed.
import { describe, expect, it } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import { AccountResources, restCaller } from '../testing/account-resources.js';
import { useServiceFixture } from '../testing/service-fixture.js';

const fixture = useServiceFixture();
const { maxFeedItems } = apiPolicies.limits;

describe('report feed (issue 12, item 1)', () => {
  it('lists only the newest published records of its window', async () => {
    const service = fixture();
    const call = restCaller(service);
    const account = await service.createAccount('paid');
    const resources = new AccountResources(call, account.keys.secret.key);
    const report = await resources.report();
    const published: string[] = [];
    for (let index = 0; index < maxFeedItems + 2; index += 1) {
      const record = await resources.record(report.id);
      await resources.publish(report.id, record.id);
      published.push(record.id);
    }
    const feed = await call('getReportFeed', { params: { reportId: report.id } });
    expect(feed.status).toBe(200);
    expect(feed.text.match(/<item>/g)).toHaveLength(maxFeedItems);
    // Newest first: the two oldest fall out of the window.
    expect(feed.text).toContain(published.at(-1));
    expect(feed.text).not.toContain(published[0]);
    expect(feed.text).not.toContain(published[1]);
  });

  it('answers 304 to a matching If-None-Match, and a new ETag once a record is published', async () => {
    const service = fixture();
    const call = restCaller(service);
    const account = await service.createAccount('paid');
    const resources = new AccountResources(call, account.keys.secret.key);
    const report = await resources.report();
    const params = { reportId: report.id };
    const first = await call('getReportFeed', { params });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toMatch(/^public, max-age=[0-9]+$/);
    const unchanged = await call('getReportFeed', { params, headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
    expect(
      (await call('getReportFeed', { params, headers: { 'if-none-match': `W/${etag}, "other"` } })).status,
    ).toBe(304);

    const record = await resources.record(report.id);
    await resources.publish(report.id, record.id);
    const changed = await call('getReportFeed', { params, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.text).toContain(record.id);
  });

  it('serves a cached feed without a lookup, and forgets it once its report is renamed or deleted', async () => {
    const service = fixture();
    const call = restCaller(service);
    const account = await service.createAccount('paid');
    const token = account.keys.secret.key;
    const report = await new AccountResources(call, token).report();
    const params = { reportId: report.id };
    expect((await call('getReportFeed', { params })).status).toBe(200);
    await call('updateReport', { token, params, body: { title: 'Renamed' } });
    expect((await call('getReportFeed', { params })).text).toContain('<title>Renamed</title>');
    expect((await call('deleteReport', { token, params })).status).toBe(200);
    expect((await call('getReportFeed', { params })).status).toBe(404);
  });
});

describe('feed cache', () => {
  it('builds a feed once for concurrent readers', async () => {
    const { FeedCache } = await import('../services/feed-cache.js');
    const cache = new FeedCache(fixture().clock);
    let builds = 0;
    const render = async () => {
      builds += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return '<rss/>';
    };
    const feeds = await Promise.all(Array.from({ length: 20 }, () => cache.get('rpt_1', 'acct_1', render)));
    expect(builds).toBe(1);
    expect(new Set(feeds.map((feed) => feed.etag)).size).toBe(1);
    cache.changed('acct_1');
    await cache.get('rpt_1', 'acct_1', render);
    expect(builds).toBe(2);
  });
});

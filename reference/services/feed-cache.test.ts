import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { FeedCache } from './feed-cache.js';
import type { FeedVersions } from './feed-versions.js';

/** Versions as a node of several sees them; `readable` false stands for Redis unreachable. */
class SharedVersions implements FeedVersions {
  readonly values = new Map<string, string>();
  readable = true;
  #next = 0;

  async read(accountId: string) {
    return this.readable ? (this.values.get(accountId) ?? '') : null;
  }

  async replace(accountIds: readonly string[]) {
    for (const accountId of accountIds) this.values.set(accountId, String(++this.#next));
  }
}

describe('feed cache with shared versions (several nodes, ADR 0023)', () => {
  const render = (xml: string) => async () => xml;

  it('trusts an entry while its account’s version stands, and not after another node replaced it', async () => {
    const versions = new SharedVersions();
    const cache = new FeedCache(new ManualClock(), versions);
    await cache.get('rpt_1', 'acct_1', render('<rss>one</rss>'));
    expect((await cache.lookup('rpt_1'))?.xml).toBe('<rss>one</rss>');
    // Another node's committed write: this node's own generation did not move, the shared version did.
    await versions.replace(['acct_1']);
    expect(await cache.lookup('rpt_1')).toBeUndefined();
    const rebuilt = await cache.get('rpt_1', 'acct_1', render('<rss>two</rss>'));
    expect(rebuilt.xml).toBe('<rss>two</rss>');
    expect((await cache.lookup('rpt_1'))?.xml).toBe('<rss>two</rss>');
    await versions.replace(['acct_other']);
    expect((await cache.lookup('rpt_1'))?.xml).toBe('<rss>two</rss>');
  });

  it('trusts nothing while the version cannot be read', async () => {
    const versions = new SharedVersions();
    const cache = new FeedCache(new ManualClock(), versions);
    await cache.get('rpt_1', 'acct_1', render('<rss>one</rss>'));
    versions.readable = false;
    expect(await cache.lookup('rpt_1')).toBeUndefined();
    let renders = 0;
    const counted = async () => {
      renders += 1;
      return '<rss>one</rss>';
    };
    await cache.get('rpt_1', 'acct_1', counted);
    await cache.get('rpt_1', 'acct_1', counted);
    expect(renders).toBe(2);
  });

  it('committed() replaces the versions of the accounts written, and moves this node’s generation too', async () => {
    const versions = new SharedVersions();
    const cache = new FeedCache(new ManualClock(), versions);
    await cache.get('rpt_1', 'acct_1', render('<rss>one</rss>'));
    await cache.committed(['acct_1']);
    expect(versions.values.get('acct_1')).toBe('1');
    expect(cache.current('rpt_1')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { ApiKeyRow } from '../../rows.js';
import { at, eventRow, newAccount, oauthClientRow, reportRow, streamRow, uniqueId } from '../fixtures.js';
import type { ContractContext } from './context.js';

const apiKeyRow = (accountId: string, kind: string): ApiKeyRow => ({
  id: uniqueId('key'),
  accountId,
  kind,
  hash: uniqueId('sha256'),
  status: 'active',
  createdAt: at(0),
  revokedAt: null,
});

export function describeLookupCases(context: ContractContext): void {
  describeAccounts(context);
  describeLookups(context);
}

function describeAccounts(context: ContractContext): void {
  describe('accounts and keys', () => {
    it('accounts: insert, get, list in creation order', async () => {
      const store = context.store();
      const [first, second] = [await newAccount(store), await newAccount(store)];
      expect(await store.accounts.get(first)).toEqual({
        id: first,
        plan: 'free',
        defaultRegion: 'eu-west',
        createdAt: at(0),
      });
      const ids = (await store.accounts.list()).map((account) => account.id);
      expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
      expect(await store.accounts.get(uniqueId('acct'))).toBeNull();
    });

    it('api keys: find by hash, list per account, revoke once', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const secret = await store.apiKeys.insert(apiKeyRow(accountId, 'secret'));
      const publishable = await store.apiKeys.insert(apiKeyRow(accountId, 'publishable'));
      expect(await store.apiKeys.findByHash(secret.hash)).toEqual(secret);
      expect(await store.apiKeys.get(publishable.id)).toEqual(publishable);
      expect(await store.apiKeys.listForAccount(accountId)).toEqual([secret, publishable]);
      const revoked = await store.apiKeys.revoke(secret.id, at(10));
      expect(revoked).toEqual({ ...secret, status: 'revoked', revokedAt: at(10) });
      expect(await store.apiKeys.revoke(secret.id, at(20))).toEqual(revoked);
      expect(await store.apiKeys.revoke(uniqueId('key'), at(20))).toBeNull();
      expect(await store.apiKeys.findByHash(uniqueId('sha256'))).toBeNull();
    });

    it('api keys: found with their account in one read', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const secret = await store.apiKeys.insert(apiKeyRow(accountId, 'secret'));
      expect(await store.apiKeys.findWithAccount(secret.hash)).toEqual({
        key: secret,
        account: await store.accounts.get(accountId),
      });
      const revoked = await store.apiKeys.revoke(secret.id, at(10));
      expect((await store.apiKeys.findWithAccount(secret.hash))?.key).toEqual(revoked);
      expect(await store.apiKeys.findWithAccount(uniqueId('sha256'))).toBeNull();
    });
  });
}

function describeLookups(context: ContractContext): void {
  describe('lookups', () => {
    it('streams.getById finds a stream of any account', async () => {
      const store = context.store();
      const stream = await store.streams.insert(streamRow(await newAccount(store)));
      expect(await store.streams.getById(stream.id)).toEqual(stream);
    });

    it('streams: setLive only from idle, setIdle only from live, listLive across accounts', async () => {
      const store = context.store();
      const stream = await store.streams.insert(streamRow(await newAccount(store)));
      const other = await store.streams.insert(streamRow(await newAccount(store)));
      const live = await store.streams.setLive(stream.id, at(5));
      expect(live).toEqual({ ...stream, status: 'live', startedAt: at(5) });
      expect(await store.streams.setLive(stream.id, at(6))).toBeNull();
      expect(await store.streams.setLive(uniqueId('stm'), at(6))).toBeNull();
      const liveIds = (await store.streams.listLive()).map((row) => row.id);
      expect(liveIds).toContain(stream.id);
      expect(liveIds).not.toContain(other.id);
      expect(await store.streams.setIdle(stream.id)).toEqual({ ...stream, status: 'idle', startedAt: null });
      expect(await store.streams.setIdle(stream.id)).toBeNull();
      expect((await store.streams.listLive()).map((row) => row.id)).not.toContain(stream.id);
    });

    it('streams: resetSubscriberCounts sets every count of any account to 0', async () => {
      const store = context.store();
      const stream = await store.streams.insert(streamRow(await newAccount(store)));
      const other = await store.streams.insert(streamRow(await newAccount(store)));
      await store.streams.update(stream.accountId, stream.id, { subscriberCount: 3 });
      await store.streams.update(other.accountId, other.id, { subscriberCount: 1 });
      expect(await store.streams.resetSubscriberCounts()).toBeGreaterThanOrEqual(2);
      expect((await store.streams.getById(stream.id))?.subscriberCount).toBe(0);
      expect((await store.streams.getById(other.id))?.subscriberCount).toBe(0);
      expect(await store.streams.resetSubscriberCounts()).toBe(0);
    });

    it('reports.getById finds a report of any account, with its record count', async () => {
      const store = context.store();
      const report = await store.reports.insert(reportRow(await newAccount(store)));
      expect(await store.reports.getById(report.id)).toEqual({ ...report, recordCount: 0 });
      expect(await store.reports.getById(uniqueId('pod'))).toBeNull();
    });

    it('events: insert, get, absent for another account', async () => {
      const store = context.store();
      const [owner, stranger] = [await newAccount(store), await newAccount(store)];
      const event = eventRow(owner, { livemode: true });
      expect(await store.events.insert(event)).toEqual(event);
      expect(await store.events.get(owner, event.id)).toEqual(event);
      expect(await store.events.get(stranger, event.id)).toBeNull();
    });

    it('oauth clients: insert, get', async () => {
      const store = context.store();
      const client = oauthClientRow(await newAccount(store));
      expect(await store.oauthClients.insert(client)).toEqual(client);
      expect(await store.oauthClients.get(client.id)).toEqual(client);
      expect(await store.oauthClients.get(uniqueId('cli'))).toBeNull();
    });
  });
}

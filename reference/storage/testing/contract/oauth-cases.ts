import { describe, expect, it } from 'vitest';
import {
  at,
  authorizationCodeRow,
  newAccount,
  oauthClientRow,
  refreshTokenRow,
  uniqueId,
} from '../fixtures.js';
import type { ContractContext } from './context.js';

export function describeOAuthCases(context: ContractContext): void {
  describe('oauth', () => {
    it('an authorization code is consumed once, even by two racing calls', async () => {
      const store = context.store();
      const client = await store.oauthClients.insert(oauthClientRow(await newAccount(store)));
      const code = await store.authorizationCodes.insert(authorizationCodeRow(client));
      expect(await store.authorizationCodes.consume(uniqueId('code'), at(7))).toBeNull();
      const racing = await store.authorizationCodes.insert(authorizationCodeRow(client));
      const outcomes = await Promise.all([
        store.authorizationCodes.consume(racing.codeHash, at(7)),
        store.authorizationCodes.consume(racing.codeHash, at(8)),
      ]);
      expect(outcomes.filter((outcome) => outcome !== null)).toHaveLength(1);
      expect(await store.authorizationCodes.consume(code.codeHash, at(9))).toEqual({
        ...code,
        usedAt: at(9),
      });
      expect(await store.authorizationCodes.consume(code.codeHash, at(10))).toBeNull();
    });

    it('a refresh token is marked used once; revoked tokens cannot be', async () => {
      const store = context.store();
      const client = await store.oauthClients.insert(oauthClientRow(await newAccount(store)));
      const token = await store.refreshTokens.insert(refreshTokenRow(client, uniqueId('family')));
      expect(await store.refreshTokens.get(token.tokenHash)).toEqual(token);
      const outcomes = await Promise.all([
        store.refreshTokens.markUsed(token.tokenHash, at(30)),
        store.refreshTokens.markUsed(token.tokenHash, at(31)),
      ]);
      expect(outcomes.sort()).toEqual([false, true]);
      expect((await store.refreshTokens.get(token.tokenHash))?.usedAt).toMatch(
        /^2030-01-01T00:3[01]:00.000Z$/,
      );
      expect(await store.refreshTokens.markUsed(uniqueId('rt'), at(32))).toBe(false);
      expect(await store.refreshTokens.get(uniqueId('rt'))).toBeNull();
    });

    it('revokeFamily revokes every token of the family and only those', async () => {
      const store = context.store();
      const client = await store.oauthClients.insert(oauthClientRow(await newAccount(store)));
      const family = uniqueId('family');
      const spent = await store.refreshTokens.insert({ ...refreshTokenRow(client, family), usedAt: at(40) });
      const current = await store.refreshTokens.insert(refreshTokenRow(client, family));
      const other = await store.refreshTokens.insert(refreshTokenRow(client, uniqueId('family')));
      await store.refreshTokens.revokeFamily(family, at(41));
      expect(await store.refreshTokens.get(spent.tokenHash)).toEqual({ ...spent, revokedAt: at(41) });
      expect(await store.refreshTokens.get(current.tokenHash)).toEqual({ ...current, revokedAt: at(41) });
      expect(await store.refreshTokens.get(other.tokenHash)).toEqual(other);
      expect(await store.refreshTokens.markUsed(current.tokenHash, at(42))).toBe(false);
      await store.refreshTokens.revokeFamily(family, at(50));
      expect((await store.refreshTokens.get(current.tokenHash))?.revokedAt).toBe(at(41));
    });
  });
}

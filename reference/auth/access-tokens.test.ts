import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import { ManualClock } from '../clock.js';
import { AccessTokens } from './access-tokens.js';

const claims = { accountId: 'acct_1', clientId: 'cl_1', scope: 'streams:read', grantId: 'grant_1' };

describe('access tokens', () => {
  it('verifies until the lifetime of the spec has passed, then reports expiry', async () => {
    const clock = new ManualClock();
    const tokens = new AccessTokens(randomBytes(32), clock);
    const token = await tokens.issue(claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    clock.advance((securitySchemeFacts.OAuth2.tokenLifetimes.accessTokenSeconds - 1) * 1000);
    expect(await tokens.verify(token)).toMatchObject({ ok: true, claims });
    clock.advance(1000);
    expect(await tokens.verify(token)).toEqual({ ok: false, expired: true });
  });

  it('refuses a token signed with another key or tampered with', async () => {
    const clock = new ManualClock();
    const token = await new AccessTokens(randomBytes(32), clock).issue(claims);
    const verifier = new AccessTokens(randomBytes(32), clock);
    expect(await verifier.verify(token)).toEqual({ ok: false, expired: false });
    expect(await verifier.verify(`${token}x`)).toEqual({ ok: false, expired: false });
    expect(await verifier.verify('not-a-token')).toEqual({ ok: false, expired: false });
  });
});

import { describe, expect, it } from 'vitest';
import { apiKeyKindOf, newApiKey } from './api-keys.js';
import { digest } from './secrets.js';

describe('API keys', () => {
  it.each(['secret', 'publishable'] as const)(
    'a new %s key is recognised as one and stored only as its digest',
    (kind) => {
      const { key, hash } = newApiKey(kind);
      expect(apiKeyKindOf(key)).toBe(kind);
      expect(hash).toBe(digest(key));
      expect(hash).not.toContain(key);
    },
  );

  it('does not take a JWT or junk for an API key', () => {
    expect(apiKeyKindOf('eyJhbGciOiJIUzI1NiJ9.e30.c2ln')).toBeNull();
    expect(apiKeyKindOf('sk_live_123')).toBeNull();
  });
});

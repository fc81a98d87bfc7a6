import { describe, expect, it } from 'vitest';
import { schemaPatterns } from '../generated/types/facts.js';
import { patternPrefix, randomMatching } from './random-token.js';

describe('values from spec patterns', () => {
  it.each([
    'StreamId',
    'CreatedStream.streamKey',
    'CreatedWebhook.signingSecret',
    'TokenResponse.refresh_token',
  ] as const)('a generated %s matches its pattern', (name) => {
    const pattern = schemaPatterns[name];
    for (let round = 0; round < 50; round += 1) expect(randomMatching(pattern)).toMatch(new RegExp(pattern));
  });

  it('takes the prefix from the pattern', () => {
    expect(patternPrefix('^stm_[A-Za-z0-9]{1,64}$')).toBe('stm_');
  });

  it('refuses a pattern it cannot honour', () => {
    expect(() => randomMatching('^[a-z]+$')).toThrow(/cannot generate/);
  });
});

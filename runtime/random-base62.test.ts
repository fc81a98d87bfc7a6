import { describe, expect, it } from 'vitest';
import { randomBase62 } from './random-base62.js';

describe('randomBase62', () => {
  it.each([1, 20, 32, 64, 65, 200])('%i base62 characters, each of the 62 in use', (length) => {
    const seen = new Set<string>();
    // At least 2,000 characters in all: the chance that one of the 62 is missing is then below 1e-12.
    for (let round = 0; round < Math.ceil(2000 / length); round += 1) {
      const text = randomBase62(length);
      expect(text).toMatch(new RegExp(`^[A-Za-z0-9]{${length}}$`));
      for (const character of text) seen.add(character);
    }
    expect(seen.size).toBe(62);
  });

  it('gives a different value each time', () => {
    expect(new Set(Array.from({ length: 1000 }, () => randomBase62(20))).size).toBe(1000);
  });
});

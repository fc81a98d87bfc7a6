import { describe, expect, it } from 'vitest';
import { createRequestIdFactory, randomBase62 } from './fastify-request-id.js';

describe('request ids', () => {
  it('are the prefix and the given number of base62 characters', () => {
    const next = createRequestIdFactory('req_', 16);
    for (let index = 0; index < 100; index += 1) expect(next()).toMatch(/^req_[A-Za-z0-9]{16}$/);
  });

  it('differ from one call to the next', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => randomBase62(16)));
    expect(ids.size).toBe(1000);
  });

  it('use every base62 character', () => {
    expect(new Set(randomBase62(20_000)).size).toBe(62);
  });
});

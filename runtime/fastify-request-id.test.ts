import { describe, expect, it } from 'vitest';
import { createRequestIdFactory } from './fastify-request-id.js';

describe('request ids', () => {
  it('are the prefix and the given number of base62 characters', () => {
    const next = createRequestIdFactory('req_', 16);
    for (let index = 0; index < 100; index += 1) expect(next()).toMatch(/^req_[A-Za-z0-9]{16}$/);
  });

  it('differ from one call to the next', () => {
    const next = createRequestIdFactory('req_', 16);
    expect(new Set(Array.from({ length: 1000 }, () => next())).size).toBe(1000);
  });
});

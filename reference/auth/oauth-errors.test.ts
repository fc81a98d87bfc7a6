import { describe, expect, it } from 'vitest';
import { rfc6749Description } from './oauth-errors.js';

/** RFC 6749 appendix A.5: error-description = 1*( %x20-21 / %x23-5B / %x5D-7E ). */
const allowed = /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/;

describe('rfc6749Description', () => {
  it('keeps text RFC 6749 allows as it is', () => {
    expect(rfc6749Description('state is required.')).toBe('state is required.');
  });

  it('turns quotes, backslashes, line breaks and non-ASCII into characters RFC 6749 allows', () => {
    const description = rfc6749Description('grant_type "pass\\word"\nis café’s');
    expect(description).toBe("grant_type 'pass/word'?is caf??s");
    expect(description).toMatch(allowed);
  });
});

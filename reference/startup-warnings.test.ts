import { describe, expect, it } from 'vitest';
import { startupWarnings } from './startup-warnings.js';

describe('startup warnings (issue 12, item 4)', () => {
  it('warns when consent is auto-approved or any proxy is trusted, and only then', () => {
    expect(startupWarnings({ dataDir: 'x' })).toEqual([]);
    expect(startupWarnings({ dataDir: 'x', trustProxy: '10.0.0.0/8' })).toEqual([]);
    expect(startupWarnings({ dataDir: 'x', autoApproveConsent: true })).toEqual([
      expect.stringMatching(/autoApproveConsent is on.*Local testing only/),
    ]);
    expect(startupWarnings({ dataDir: 'x', trustProxy: true })).toEqual([
      expect.stringMatching(/X-Forwarded-For/),
    ]);
  });
});

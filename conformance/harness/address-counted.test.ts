import { describe, expect, it } from 'vitest';
import { alwaysAtRisk, countedByTarget } from './address-counted.js';

describe('requests the target counts per address', () => {
  it('counts every 401, report feeds whatever their answer, refused grants and consents', () => {
    expect(countedByTarget('GET', '/streams', 401)).toBe(true);
    expect(countedByTarget('GET', '/reports/rpt_1/feed.xml', 200)).toBe(true);
    expect(countedByTarget('GET', '/reports/rpt_1/feed.xml?x=1', 404)).toBe(true);
    expect(countedByTarget('POST', '/oauth/token', 400)).toBe(true);
    expect(countedByTarget('POST', '/oauth/authorize', 400)).toBe(true);
  });

  it('does not count answers to a valid credential or a granted token', () => {
    expect(countedByTarget('GET', '/streams', 200)).toBe(false);
    expect(countedByTarget('GET', '/streams', 403)).toBe(false);
    expect(countedByTarget('POST', '/streams', 400)).toBe(false);
    expect(countedByTarget('POST', '/oauth/token', 200)).toBe(false);
    expect(countedByTarget('GET', '/oauth/authorize', 400)).toBe(false);
    expect(countedByTarget('GET', '/reports/rpt_1/feed.xml/extra', 200)).toBe(false);
  });

  it('holds feeds, the token endpoint and the consent form at risk before the answer', () => {
    expect(alwaysAtRisk('GET', '/reports/rpt_1/feed.xml')).toBe(true);
    expect(alwaysAtRisk('POST', '/oauth/token')).toBe(true);
    expect(alwaysAtRisk('POST', '/oauth/authorize')).toBe(true);
    expect(alwaysAtRisk('GET', '/streams')).toBe(false);
  });
});

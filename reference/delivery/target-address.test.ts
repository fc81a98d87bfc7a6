import { describe, expect, it } from 'vitest';
import { addressRefusal } from './target-address.js';

const cases: Array<[string, { strict: boolean; local: boolean }]> = [
  ['93.184.216.34', { strict: true, local: true }],
  ['2606:2800:220:1:248:1893:25c8:1946', { strict: true, local: true }],
  ['127.0.0.1', { strict: false, local: true }],
  ['::1', { strict: false, local: true }],
  ['10.20.30.40', { strict: false, local: true }],
  ['172.31.255.255', { strict: false, local: true }],
  ['192.168.1.1', { strict: false, local: true }],
  ['fd12::1', { strict: false, local: true }],
  ['::ffff:127.0.0.1', { strict: false, local: true }],
  ['169.254.169.254', { strict: false, local: false }],
  ['fe80::1', { strict: false, local: false }],
  ['0.0.0.0', { strict: false, local: false }],
  ['::', { strict: false, local: false }],
  ['224.0.0.1', { strict: false, local: false }],
  ['::ffff:169.254.169.254', { strict: false, local: false }],
];

describe('addressRefusal', () => {
  for (const [address, allowed] of cases) {
    it(`${address} (${allowed.strict ? 'public' : allowed.local ? 'private' : 'never'})`, () => {
      expect(addressRefusal(address, { allowPrivate: false }) === null).toBe(allowed.strict);
      expect(addressRefusal(address, { allowPrivate: true }) === null).toBe(allowed.local);
    });
  }
});

// Issue 12, item 12: the body limit and the schema's limits agree. The limit is derived from the largest valid record
// upload (x-limits.maxRequestBodyBytes: largestBodyOf CreateRecordRequest), so that upload, written out, is exactly the
// limit; a valid record body of exactly the limit is accepted, one byte more is 413, and a record too large for the
// schema is refused by the schema (400 naming `samples`), never by the body limit.
import { describe, expect, it } from 'vitest';
import { apiPolicies, schemaMaxItems } from '../../generated/types/facts.js';
import { AccountResources, restCaller } from '../testing/account-resources.js';
import { expectProblem } from '../testing/expect-problem.js';
import { useServiceFixture } from '../testing/service-fixture.js';

const fixture = useServiceFixture();
const limit = apiPolicies.limits.maxRequestBodyBytes;
const maxSamples: number = schemaMaxItems['CreateRecordRequest.samples'];
/** The widest double in JSON.stringify's form. */
const widestNumber = -1.7976931348623157e308;

function channels(count: number, nameLength: number, value: number): Record<string, number> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, index) => [`c${String(index).padStart(nameLength - 1, '0')}`, value]),
  );
}

function samples(count: number, values: Record<string, number>) {
  return Array.from({ length: count }, (_, index) => ({ ts: 1795253472250 + index, values }));
}

describe('the body limit derived from the record schema (issue 12, item 12)', () => {
  it('is the size of the largest valid upload, written out', () => {
    // The schema's own bounds: 64 channels of 64-character names, a title of 200 characters JSON must escape.
    const largest = {
      title: '\u0001'.repeat(200),
      samples: Array.from({ length: maxSamples }, () => ({
        ts: Number.MAX_VALUE,
        values: channels(64, 64, widestNumber),
      })),
    };
    expect(Buffer.byteLength(JSON.stringify(largest))).toBe(limit);
  });

  it('accepts a valid record body of exactly the limit and refuses one byte more with 413', async () => {
    const service = fixture();
    const call = restCaller(service);
    const account = await service.createAccount('paid');
    const resources = new AccountResources(call, account.keys.secret.key);
    const report = await resources.report();
    const json = JSON.stringify({ samples: samples(maxSamples, channels(64, 64, widestNumber)) });
    expect(json.length).toBeLessThanOrEqual(limit);
    const send = (body: string) =>
      call('createRecord', { token: account.keys.secret.key, params: { reportId: report.id }, body });
    // Whitespace pads a valid body to the exact size without changing what it says.
    const atLimit = await send(json + ' '.repeat(limit - json.length));
    expect(atLimit.status, atLimit.text.slice(0, 300)).toBe(201);
    expectProblem(await send(json + ' '.repeat(limit - json.length + 1)), 'body_too_large');
  }, 60_000);

  it('refuses a record over the schema’s samples limit by the schema, not by size', async () => {
    const service = fixture();
    const call = restCaller(service);
    const account = await service.createAccount('paid');
    const report = await new AccountResources(call, account.keys.secret.key).report();
    const reply = await call('createRecord', {
      token: account.keys.secret.key,
      params: { reportId: report.id },
      body: { samples: samples(maxSamples + 1, channels(8, 8, 1.5)) },
    });
    expectProblem(reply, 'parameter_invalid', 'samples');
  });
});

// A page of reports is written with JSON.stringify (runtime/wire-shaped.ts), not the schema's
// serializer: the text must be the one the schema's serializer writes for the same body, byte for byte, on the SQL
// store (counts and metadata as SQL returns them).
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { responseSchemas } from '../../generated/server/schemas.js';
import { AccountResources, restCaller } from '../testing/account-resources.js';
import { useServiceFixture } from '../testing/service-fixture.js';

const fixture = useServiceFixture();

describe('GET /reports, written as it is built', () => {
  it('is the schema serializer’s text for the same page, with its content type', async () => {
    const service = fixture();
    const account = await service.createAccount('paid');
    const call = restCaller(service);
    const resources = new AccountResources(call, account.keys.secret.key);
    // Titles that need escaping: a quote, a backslash, a control character, U+2028, a surrogate pair.
    const counted = await resources.report('Quote " backslash \\ tab \t line \u2028 pump 😀');
    await resources.report('Plain');
    await resources.record(counted.id);
    const page = await call('listReports', { token: account.keys.secret.key, query: { limit: 1 } });
    const rest = await call('listReports', {
      token: account.keys.secret.key,
      query: { limit: 5, after: (page.body as { nextCursor: string }).nextCursor },
    });
    const serialize = fastJson(responseSchemas.ReportList as Parameters<typeof fastJson>[0]);
    for (const reply of [page, rest]) {
      expect(reply.status).toBe(200);
      expect(reply.text).toBe(serialize(JSON.parse(reply.text)));
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    expect(JSON.parse(rest.text).data[0]).toMatchObject({ id: counted.id, recordCount: 1 });
    expect(JSON.parse(page.text)).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
  });
});

import { describe, expect, it } from 'vitest';
import { buildUrl, callSignal, encodeBody, serialiseQuery } from './request.js';

describe('request building', () => {
  it('substitutes encoded path parameters after the base URL path', () => {
    const url = buildUrl('https://api.example.test/v2/', {
      path: '/reports/{reportId}/records/{recordId}',
      pathParameters: { reportId: 'a/b c', recordId: 7 },
    });
    expect(url.toString()).toBe('https://api.example.test/v2/reports/a%2Fb%20c/records/7');
  });

  it('refuses a path parameter that was not given', () => {
    expect(() => buildUrl('https://api.example.test', { path: '/streams/{streamId}' })).toThrow('streamId');
  });

  it('serialises queries in form style: arrays repeat, objects spread, absent values are left out', () => {
    const query = {
      limit: 2,
      tags: ['a', 'b'],
      filter: { status: 'live' },
      after: undefined,
      flag: false,
      none: null,
    };
    expect(serialiseQuery(query).toString()).toBe('limit=2&tags=a&tags=b&status=live&flag=false');
  });

  it('encodes JSON and form bodies by media type and passes others through', () => {
    expect(encodeBody({ contentType: 'application/json', value: { a: 1 } })).toEqual({
      body: '{"a":1}',
      contentType: 'application/json',
    });
    expect(
      encodeBody({ contentType: 'application/x-www-form-urlencoded', value: { grant_type: 'x y' } }),
    ).toEqual({
      body: 'grant_type=x+y',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(encodeBody({ contentType: 'application/json', value: undefined })).toEqual({});
    expect(encodeBody({ contentType: 'text/csv', value: 'a,b' })).toEqual({
      body: 'a,b',
      contentType: 'text/csv',
    });
  });

  it('aborts on the caller signal or the timeout, whichever comes first', async () => {
    const controller = new AbortController();
    const signal = callSignal(10_000, controller.signal);
    controller.abort(new Error('stop'));
    expect(signal.reason).toEqual(new Error('stop'));
    const timed = callSignal(5, undefined);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(timed.reason).toMatchObject({ name: 'TimeoutError' });
  });
});

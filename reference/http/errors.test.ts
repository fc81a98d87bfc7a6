// Every error path of the REST API answers the spec's envelope with the catalogue's status, and nothing answers 500:
// a table of the documented error paths, another account's ids, and a fuzz of every operation with bad input.
import { describe, expect, it } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { apiPolicies, schemaPatterns } from '../../generated/types/facts.js';
import { randomBase62 } from '../../runtime/random-base62.js';
import type { ErrorCode } from '../problems.js';
import { AccountResources, type Call, restCaller, sampleBodies } from '../testing/account-resources.js';
import {
  type Reply,
  type RequestParts,
  type RestOperationId,
  restOperationIds,
} from '../testing/call-operation.js';
import { expectEnvelope, expectProblem } from '../testing/expect-problem.js';
import {
  hostileFieldBodies,
  hostileJsonBodies,
  hostilePathSegments,
  hostileQueries,
  rawPath,
} from '../testing/fuzz-corpus.js';
import { isProtected, scenarios, successStatus } from '../testing/operation-scenarios.js';
import { documentedBody, responseProblem } from '../testing/response-validators.js';
import { useServiceFixture } from '../testing/service-fixture.js';

const fixture = useServiceFixture();

interface CaseContext {
  call: Call;
  token: string;
}

const allowedAt = (url: string) =>
  [
    ...new Set(
      Object.values(routes)
        .filter((route) => route.url === url)
        .map((route) => route.method),
    ),
  ].sort();

const errorCases: Array<
  [string, { given: (context: CaseContext) => Promise<Reply>; want: { code: ErrorCode; param?: string } }]
> = [
  [
    'unknown route',
    {
      given: ({ call, token }) => call('listStreams', { token, rawPath: '/no-such-collection' }),
      want: { code: 'route_not_found' },
    },
  ],
  [
    'path outside the base path',
    {
      given: ({ call, token }) => call('listStreams', { token, rawUrl: '/no-such-root' }),
      want: { code: 'route_not_found' },
    },
  ],
  [
    'malformed JSON',
    {
      given: ({ call, token }) => call('createStream', { token, body: '{"title": "Pump' }),
      want: { code: 'body_invalid_json' },
    },
  ],
  [
    'empty JSON body',
    {
      given: ({ call, token }) => call('createStream', { token, body: '' }),
      want: { code: 'body_invalid_json' },
    },
  ],
  [
    'text/plain body',
    {
      given: ({ call, token }) =>
        call('createStream', { token, body: 'title=Pump', headers: { 'content-type': 'text/plain' } }),
      want: { code: 'content_type_unsupported' },
    },
  ],
  [
    'form body on a JSON operation',
    {
      given: ({ call, token }) =>
        call('createStream', {
          token,
          body: 'title=Pump',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      want: { code: 'content_type_unsupported' },
    },
  ],
  [
    `body over ${apiPolicies.limits.maxRequestBodyBytes} bytes`,
    {
      given: ({ call, token }) =>
        call('createStream', {
          token,
          body: JSON.stringify({ title: 'x'.repeat(apiPolicies.limits.maxRequestBodyBytes) }),
        }),
      want: { code: 'body_too_large' },
    },
  ],
  [
    'unknown body field',
    {
      given: ({ call, token }) =>
        call('createStream', { token, body: { ...sampleBodies.stream, colour: 'red' } }),
      want: { code: 'parameter_unknown', param: 'colour' },
    },
  ],
  [
    'wrong type',
    {
      given: ({ call, token }) => call('createStream', { token, body: { title: 7 } }),
      want: { code: 'parameter_invalid', param: 'title' },
    },
  ],
  [
    'missing title',
    {
      given: ({ call, token }) => call('createStream', { token, body: {} }),
      want: { code: 'param_required', param: 'title' },
    },
  ],
  [
    'unknown query parameter',
    {
      given: ({ call, token }) => call('listStreams', { token, query: { colour: 'red' } }),
      want: { code: 'parameter_unknown', param: 'colour' },
    },
  ],
  [
    'query parameter of an operation that takes none',
    {
      given: ({ call, token }) => call('getAccount', { token, query: { expand: 'keys' } }),
      want: { code: 'parameter_unknown', param: 'expand' },
    },
  ],
  [
    'malformed path id',
    {
      given: ({ call, token }) => call('getStream', { token, params: { streamId: 'not-an-id' } }),
      want: { code: 'parameter_invalid', param: 'streamId' },
    },
  ],
  [
    'path that does not decode',
    {
      given: ({ call, token }) => call('getStream', { token, rawPath: '/streams/%E0%A4%A' }),
      want: { code: 'route_not_found' },
    },
  ],
  [
    'overlong path id',
    {
      given: ({ call, token }) =>
        call('getStream', { token, params: { streamId: `stm_${'A'.repeat(300)}` } }),
      want: { code: 'parameter_invalid', param: 'streamId' },
    },
  ],
  [
    'NUL character in a body string',
    {
      given: ({ call, token }) => call('createStream', { token, body: { title: 'Pump\u00007' } }),
      want: { code: 'parameter_invalid', param: 'title' },
    },
  ],
  [
    'NUL character in a cursor',
    {
      given: ({ call, token }) => call('listStreams', { token, rawQuery: 'after=stm_a%00b' }),
      want: { code: 'parameter_invalid', param: 'after' },
    },
  ],
  [
    'missing resource',
    {
      given: ({ call, token }) =>
        call('getStream', { token, params: { streamId: `stm_${randomBase62(20)}` } }),
      want: { code: 'resource_missing', param: 'streamId' },
    },
  ],
];

describe('error paths', () => {
  it.each(errorCases)('%s', async (_name, { given, want }) => {
    const account = await fixture().createAccount();
    const call = restCaller(fixture());
    const token = account.keys.secret.key;
    const reply = await given({ call, token });
    expectProblem(reply, want.code, want.param);
  });

  it.each([
    ['/streams', 'PUT'],
    ['/streams/:streamId', 'POST'],
    ['/reports/:reportId/records/:recordId/publish', 'GET'],
  ] as const)('%s with %s answers 405 method_not_allowed with Allow', async (url, method) => {
    const account = await fixture().createAccount();
    const operation = Object.values(routes).find((route) => route.url === url);
    if (operation === undefined) throw new Error(`no operation has the path ${url}`);
    // The method is refused before the ids are looked at, so any segment does.
    const rawPath = url.replace(/:([A-Za-z]+)/g, () => randomBase62(20));
    const reply = await restCaller(fixture())(operation.operationId, {
      token: account.keys.secret.key,
      method,
      rawPath,
    });
    expectProblem(reply, 'method_not_allowed');
    expect(reply.headers.allow).toBe(allowedAt(url).join(', '));
  });

  it('names a query parameter given twice as such, not as a value of the wrong type', async () => {
    const account = await fixture().createAccount();
    const reply = await restCaller(fixture())('listStreams', {
      token: account.keys.secret.key,
      rawPath: `${routes.listStreams.url}?limit=5&limit=6`,
    });
    expectProblem(reply, 'parameter_invalid', 'limit');
    expect(reply.body).toMatchObject({
      error: { message: 'Invalid limit: must be given once, not 2 times.' },
    });
  });

  it('gives every reply, success included, a Request-Id in the spec format', async () => {
    const account = await fixture().createAccount();
    const reply = await restCaller(fixture())('getAccount', { token: account.keys.secret.key });
    expect(reply.status).toBe(200);
    expect(reply.headers['request-id']).toMatch(new RegExp(schemaPatterns.RequestId));
  });
});

/** The parts of an error a client could tell apart, with every id in the message replaced. */
function comparable(reply: Reply, ids: readonly string[]) {
  const { error } = expectEnvelope(reply);
  const { requestId: _requestId, message, ...rest } = error;
  const masked = ids.reduce((text, id) => text.split(id).join('<id>'), message);
  return { status: reply.status, ...rest, message: masked };
}

const missingLike = (id: string) => `${id.slice(0, id.indexOf('_') + 1)}${randomBase62(20)}`;

describe("another account's ids", () => {
  const withPathIds = restOperationIds.filter((id) => routes[id].url.includes(':') && isProtected(id));

  it.each(withPathIds)('%s answers them exactly like missing ones', async (operationId) => {
    const call = restCaller(fixture());
    const owner = await fixture().createAccount();
    const caller = await fixture().createAccount();
    const token = caller.keys.secret.key;
    const foreign =
      (await scenarios[operationId](new AccountResources(call, owner.keys.secret.key))).params ?? {};
    const own = await scenarios[operationId](new AccountResources(call, token));
    // Every id foreign at once, then (records) one at a time beside the caller's own ids.
    const names = Object.keys(foreign);
    const variants: Array<Record<string, string>> = [
      foreign,
      ...(names.length > 1 ? names.map((name) => ({ ...own.params, [name]: foreign[name] ?? '' })) : []),
    ];
    for (const params of variants) {
      const missing = Object.fromEntries(
        Object.entries(params).map(([name, id]) => [name, id === own.params?.[name] ? id : missingLike(id)]),
      );
      const request = (ids: Record<string, string>): RequestParts => ({ ...own, params: ids, token });
      const foreignReply = await call(operationId, request(params));
      const missingReply = await call(operationId, request(missing));
      expectProblem(foreignReply, 'resource_missing');
      const masked = [...Object.values(params), ...Object.values(missing)];
      expect(comparable(foreignReply, masked)).toEqual(comparable(missingReply, masked));
    }
  });
});

/** What is wrong with a reply to bad input, or null: no 5xx, no stack, the envelope on errors, the spec on success. */
function replyProblem(operationId: RestOperationId, reply: Reply, reachesOperation: boolean): string | null {
  if (reply.status >= 500) return `${reply.status} ${reply.text.slice(0, 300)}`;
  try {
    if (reply.status >= 400) expectEnvelope(reply);
    else if (reachesOperation) {
      expect(reply.status).toBe(successStatus(operationId));
      expect(responseProblem(operationId, reply.status, documentedBody(operationId, reply))).toBeNull();
    }
    return null;
  } catch (error) {
    return `${reply.status} ${(error as Error).message.split('\n')[0]?.slice(0, 200)}`;
  }
}

/** A fuzzed request, and whether it still addresses the operation (a `..` segment resolves to another path). */
type FuzzRequest = [name: string, parts: RequestParts, reachesOperation: boolean];

function fuzzRequests(operationId: RestOperationId, valid: RequestParts): FuzzRequest[] {
  const route = routes[operationId];
  const requests: FuzzRequest[] = [];
  if (route.requestBody !== null) {
    for (const [name, text] of hostileJsonBodies)
      requests.push([`body ${name}`, { ...valid, body: text }, true]);
    const body = valid.body === undefined ? {} : (valid.body as Record<string, unknown>);
    for (const [name, hostile] of hostileFieldBodies(body))
      requests.push([name, { ...valid, body: hostile }, true]);
  }
  for (const name of Object.keys(valid.params ?? {})) {
    for (const [segment, value] of hostilePathSegments) {
      const params = { ...valid.params, [name]: value };
      const parts = { ...valid, rawPath: rawPath(operationId, params) };
      requests.push([`${name} ${segment}`, parts, !value.split('/').includes('..')]);
    }
  }
  for (const [name, rawQuery] of hostileQueries)
    requests.push([`query ${name}`, { ...valid, rawQuery }, true]);
  return requests;
}

describe('fuzz: no bad input makes the service fail', () => {
  it.each(restOperationIds)('%s', async (operationId) => {
    const account = await fixture().createAccount();
    const call = restCaller(fixture());
    const token = isProtected(operationId) ? account.keys.secret.key : null;
    const valid = await scenarios[operationId](new AccountResources(call, account.keys.secret.key));
    const failures: string[] = [];
    for (const [name, parts, reachesOperation] of fuzzRequests(operationId, valid)) {
      const problem = replyProblem(
        operationId,
        await call(operationId, { ...parts, token }),
        reachesOperation,
      );
      if (problem !== null) failures.push(`${name}: ${problem}`);
    }
    expect(failures).toEqual([]);
  });
});

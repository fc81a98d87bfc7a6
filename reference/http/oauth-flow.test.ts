// The OAuth 2.0 authorization code flow end to end on the `auth` app, and its tokens on the `api` app.
import { describe, expect, it } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import type { Account, TokenResponse } from '../../generated/types/schemas.js';
import { createOAuthClient } from '../seed.js';
import { authCaller, bodyOf, restCaller } from '../testing/account-resources.js';
import type { Reply } from '../testing/call-operation.js';
import { expectProblem } from '../testing/expect-problem.js';
import { hostileValues } from '../testing/fuzz-corpus.js';
import {
  approvedCode,
  consent,
  exchange,
  formBody,
  locationOf,
  type OAuthSetup,
  oauthSetup,
  redirectUris,
  tokenRequest,
} from '../testing/oauth-flow.js';
import { responseProblem } from '../testing/response-validators.js';
import { useServiceFixture } from '../testing/service-fixture.js';

const fixture = useServiceFixture();
const lifetimes = securitySchemeFacts.OAuth2.tokenLifetimes;
const readStreams = 'streams:read';

function tokensOf(reply: Reply): TokenResponse {
  expect(responseProblem('oauthToken', reply.status, reply.body)).toBeNull();
  return bodyOf<TokenResponse>(reply, 200);
}

/** A refusal of the token endpoint: its status, the RFC 6749 error, and a body the spec's OAuthError accepts. */
function tokenError(reply: Reply): string {
  expect(responseProblem('oauthToken', reply.status, reply.body)).toBeNull();
  return `${reply.status} ${(reply.body as { error: string }).error}`;
}

describe('authorization endpoint', () => {
  it('shows a consent page when auto-approval is off', async () => {
    const setup = await oauthSetup(fixture(), readStreams);
    const reply = await setup.call('oauthAuthorize', { query: setup.request });
    expect(reply.status).toBe(200);
    expect(String(reply.headers['content-type'])).toContain(
      routes.oauthAuthorize.responses['200'].contentType,
    );
    expect(responseProblem('oauthAuthorize', 200, reply.text)).toBeNull();
    expect(reply.text).toContain('<form method="post"');
    expect(reply.text).toContain(readStreams);
    expect(reply.headers.location).toBeUndefined();
  });

  it('redirects with code and state on approval, with access_denied and state on refusal', async () => {
    const setup = await oauthSetup(fixture(), readStreams);
    const approved = locationOf(await consent(setup, 'approve'));
    expect(`${approved?.origin}${approved?.pathname}`).toBe(setup.request.redirect_uri);
    expect(approved?.searchParams.get('code')).toMatch(/^\S+$/);
    expect(approved?.searchParams.get('state')).toBe(setup.request.state);
    const denied = locationOf(await consent(setup, 'deny'));
    expect(denied?.searchParams.get('error')).toBe('access_denied');
    expect(denied?.searchParams.get('state')).toBe(setup.request.state);
    expect(denied?.searchParams.has('code')).toBe(false);
  });

  const pageCases: Array<[string, { given: (setup: OAuthSetup) => Record<string, string> }]> = [
    ['unknown client_id', { given: (setup) => ({ ...setup.request, client_id: 'cl_unknown' }) }],
    [
      'unregistered redirect_uri',
      { given: (setup) => ({ ...setup.request, redirect_uri: 'https://evil.example.com/callback' }) },
    ],
  ];
  it.each(pageCases)('answers %s with a page and never redirects', async (_name, { given }) => {
    const setup = await oauthSetup(fixture(), readStreams);
    for (const reply of [
      await setup.call('oauthAuthorize', { query: given(setup) }),
      await consent(setup, 'approve', given(setup)),
    ]) {
      expect(reply.status).toBe(400);
      expect(reply.headers.location).toBeUndefined();
      expect(String(reply.headers['content-type'])).toContain('text/html');
    }
  });

  const redirectCases: Array<
    [string, { given: (setup: OAuthSetup) => Record<string, string>; want: string }]
  > = [
    [
      'missing state',
      {
        given: ({ request: { state: _state, ...rest } }) => rest,
        want: 'invalid_request',
      },
    ],
    [
      'unknown scope',
      { given: (setup) => ({ ...setup.request, scope: 'streams:delete' }), want: 'invalid_scope' },
    ],
    [
      'another response_type',
      { given: (setup) => ({ ...setup.request, response_type: 'token' }), want: 'unsupported_response_type' },
    ],
    [
      'a malformed code_challenge',
      { given: (setup) => ({ ...setup.request, code_challenge: 'short' }), want: 'invalid_request' },
    ],
  ];
  it.each(redirectCases)('redirects %s back to the client with an error', async (_name, { given, want }) => {
    const setup = await oauthSetup(fixture(), readStreams);
    const query = given(setup);
    const reply = await setup.call('oauthAuthorize', { query });
    expect(reply.status, reply.text).toBe(302);
    const location = locationOf(reply);
    expect(location?.searchParams.get('error')).toBe(want);
    expect(location?.searchParams.has('code')).toBe(false);
    expect(location?.searchParams.get('state') ?? undefined).toBe(query.state);
  });

  it('grants at once for login_hint when auto-approval is on', async () => {
    const service = fixture();
    const apps = await service.buildAppsWith({ autoApproveConsent: true });
    const setup = await oauthSetup(service, 'account:read');
    const hinted = await service.createAccount();
    const call = authCaller(service, apps.auth);
    const reply = await call('oauthAuthorize', { query: { ...setup.request, login_hint: hinted.accountId } });
    expect(reply.status).toBe(302);
    const code = locationOf(reply)?.searchParams.get('code') ?? '';
    expect(locationOf(reply)?.searchParams.get('state')).toBe(setup.request.state);
    const tokens = tokensOf(await exchange(setup, code));
    const account = await restCaller(service)('getAccount', { token: tokens.access_token });
    expect(bodyOf<Account>(account, 200).id).toBe(hinted.accountId);
  });
});

describe('token endpoint', () => {
  it('exchanges a code with its PKCE verifier for tokens that are not cached', async () => {
    const setup = await oauthSetup(fixture(), readStreams);
    const reply = await exchange(setup, await approvedCode(setup));
    const tokens = tokensOf(reply);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      scope: readStreams,
      expires_in: lifetimes.accessTokenSeconds,
    });
  });

  it('gives an access token its scopes and no others', async () => {
    const setup = await oauthSetup(fixture(), readStreams);
    const { access_token: token } = tokensOf(await exchange(setup, await approvedCode(setup)));
    const call = restCaller(fixture());
    expect((await call('listStreams', { token })).status).toBe(200);
    expectProblem(
      await call('createStream', { token, body: { title: 'Not allowed' } }),
      'insufficient_scope',
    );
    expectProblem(await call('getAccount', { token }), 'insufficient_scope');
  });

  const refusals: Array<
    [string, { given: (setup: OAuthSetup, code: string) => Promise<Reply>; want: string }]
  > = [
    [
      'a code used twice',
      {
        given: async (setup, code) => {
          tokensOf(await exchange(setup, code));
          return exchange(setup, code);
        },
        want: '400 invalid_grant',
      },
    ],
    [
      'another redirect_uri',
      {
        given: (setup, code) => exchange(setup, code, { redirect_uri: redirectUris[1] ?? '' }),
        want: '400 invalid_grant',
      },
    ],
    [
      'a wrong verifier',
      {
        given: (setup, code) => exchange(setup, code, { code_verifier: 'x'.repeat(64) }),
        want: '400 invalid_grant',
      },
    ],
    [
      'a wrong client secret',
      {
        given: (setup, code) => exchange(setup, code, { client_secret: 'cs_wrong' }),
        want: '401 invalid_client',
      },
    ],
    [
      'the code of another client',
      {
        given: async (setup, code) => {
          const service = fixture();
          const other = await createOAuthClient(
            service.store,
            service.clock,
            setup.accountId,
            'Other',
            redirectUris,
          );
          return exchange(setup, code, { client_id: other.clientId, client_secret: other.clientSecret });
        },
        want: '400 invalid_grant',
      },
    ],
    [
      'an expired code',
      {
        given: async (setup, code) => {
          fixture().clock.advance((lifetimes.authorizationCode.lifetimeSeconds + 1) * 1000);
          return exchange(setup, code);
        },
        want: '400 invalid_grant',
      },
    ],
    [
      'an unsupported grant_type',
      {
        given: (setup, code) => exchange(setup, code, { grant_type: 'password' }),
        want: '400 unsupported_grant_type',
      },
    ],
  ];
  it.each(refusals)('refuses %s', async (_name, { given, want }) => {
    const setup = await oauthSetup(fixture(), readStreams);
    const reply = await given(setup, await approvedCode(setup));
    expect(tokenError(reply)).toBe(want);
  });

  it('says which grant types exist when the grant_type is unsupported (issue 12, item 4)', async () => {
    const setup = await oauthSetup(fixture(), readStreams);
    const reply = await exchange(setup, await approvedCode(setup), { grant_type: 'password' });
    expect(reply.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: "grant_type 'password' is not supported; use authorization_code or refresh_token.",
    });
  });

  it.each(['grant_type', 'code', 'client_id'])(
    'refuses a repeated %s with invalid_request, naming it (RFC 6749 section 3.2)',
    async (name) => {
      const setup = await oauthSetup(fixture(), readStreams);
      const form: Record<string, string> = {
        client_id: setup.client.clientId,
        client_secret: setup.client.clientSecret,
        grant_type: 'authorization_code',
        code: await approvedCode(setup),
        redirect_uri: setup.request.redirect_uri ?? '',
        code_verifier: setup.pkce.verifier,
      };
      const again = new URLSearchParams({ [name]: form[name] ?? '' }).toString();
      const reply = await setup.call('oauthToken', { body: `${formBody(form)}&${again}` });
      expect(tokenError(reply)).toBe('400 invalid_request');
      expect((reply.body as { error_description: string }).error_description).toContain(
        `parameter ${name} is given more than once`,
      );
    },
  );

  it('rotates refresh tokens and revokes the family when an old one comes back', async () => {
    const setup = await oauthSetup(fixture(), readStreams);
    const refresh = (token: string) =>
      tokenRequest(setup, { grant_type: 'refresh_token', refresh_token: token });
    const first = tokensOf(await exchange(setup, await approvedCode(setup)));
    const second = tokensOf(await refresh(first.refresh_token));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe(readStreams);
    const third = tokensOf(await refresh(second.refresh_token));
    expect(tokenError(await refresh(first.refresh_token))).toBe('400 invalid_grant');
    expect(tokenError(await refresh(third.refresh_token))).toBe('400 invalid_grant');
    expect((await restCaller(fixture())('listStreams', { token: third.access_token })).status).toBe(200);
  });
});

describe('fuzz: no bad input makes the authorization server fail', () => {
  const hostileStrings = hostileValues.flatMap(
    ([name, value]): Array<[string, string]> => (typeof value === 'string' ? [[name, value]] : []),
  );

  /** Each field of a valid form set to each hostile string, removed, and repeated; plus the form sent as JSON. */
  function variants(valid: Record<string, string>, withJson: boolean): Array<[string, string, string]> {
    const form = 'application/x-www-form-urlencoded';
    const cases: Array<[string, string, string]> = withJson
      ? [['as JSON', JSON.stringify(valid), 'application/json']]
      : [];
    for (const field of Object.keys(valid)) {
      const rest = Object.entries(valid).filter(([name]) => name !== field);
      cases.push([`${field} missing`, formBody(Object.fromEntries(rest)), form]);
      cases.push([`${field} repeated`, `${formBody(valid)}&${formBody({ [field]: 'again' })}`, form]);
      for (const [name, value] of hostileStrings)
        cases.push([`${field} ${name}`, formBody({ ...valid, [field]: value }), form]);
    }
    return cases;
  }

  function problemOf(
    operationId: 'oauthAuthorize' | 'oauthConsent' | 'oauthToken',
    reply: Reply,
  ): string | null {
    if (reply.status >= 500 || /\bat .+:\d+:\d+\)?$/m.test(reply.text))
      return `${reply.status} ${reply.text.slice(0, 200)}`;
    const documented = Object.keys(routes[operationId].responses);
    if (!documented.includes(String(reply.status))) return `undocumented status ${reply.status}`;
    if (operationId !== 'oauthToken' || reply.status === 200) return null;
    return responseProblem(operationId, reply.status, reply.body);
  }

  it('authorization, consent and token requests', async () => {
    const setup = await oauthSetup(fixture(), readStreams);
    const code = await approvedCode(setup);
    const forms = {
      oauthAuthorize: setup.request,
      oauthConsent: { ...setup.request, decision: 'approve', api_key: setup.secretKey },
      oauthToken: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: setup.request.redirect_uri ?? '',
        client_id: setup.client.clientId,
        client_secret: setup.client.clientSecret,
        code_verifier: setup.pkce.verifier,
      },
    } as const;
    const failures: string[] = [];
    for (const [operationId, valid] of Object.entries(forms) as Array<
      [keyof typeof forms, Record<string, string>]
    >) {
      const isQuery = operationId === 'oauthAuthorize';
      for (const [name, body, contentType] of variants(valid, !isQuery)) {
        const reply = isQuery
          ? await setup.call(operationId, { rawQuery: body })
          : await setup.call(operationId, { body, headers: { 'content-type': contentType } });
        const problem = problemOf(operationId, reply);
        if (problem !== null) failures.push(`${operationId} ${name}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

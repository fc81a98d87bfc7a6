// Issue 12, item 4: the token endpoint per RFC 6749 and RFC 9700: HTTP Basic client authentication (and never two
// methods at once), a reused code revokes what it gave, PKCE on every authorization request, accurate errors.
import { describe, expect, it } from 'vitest';
import type { TokenResponse } from '../../generated/types/schemas.js';
import { createPublicOAuthClient } from '../seed.js';
import { bodyOf } from '../testing/account-resources.js';
import type { Reply } from '../testing/call-operation.js';
import {
  approvedCode,
  formBody,
  locationOf,
  type OAuthSetup,
  oauthSetup,
  redirectUris,
} from '../testing/oauth-flow.js';
import { responseProblem } from '../testing/response-validators.js';
import { useServiceFixture } from '../testing/service-fixture.js';

const fixture = useServiceFixture();
const scope = 'streams:read';

const basic = (clientId: string, clientSecret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;

/** A token request with exactly the form fields and Authorization header given (no client credentials added). */
function tokenCall(setup: OAuthSetup, fields: Record<string, string>, authorization?: string) {
  const headers = authorization === undefined ? {} : { authorization };
  return setup.call('oauthToken', { body: formBody(fields), headers });
}

function codeFields(setup: OAuthSetup, code: string): Record<string, string> {
  return {
    grant_type: 'authorization_code',
    code,
    redirect_uri: setup.request.redirect_uri ?? '',
    code_verifier: setup.pkce.verifier,
  };
}

function refusal(reply: Reply): { status: number; error: string; description: string } {
  expect(responseProblem('oauthToken', reply.status, reply.body)).toBeNull();
  const body = reply.body as { error: string; error_description: string };
  return { status: reply.status, error: body.error, description: body.error_description };
}

describe('client authentication at the token endpoint (RFC 6749 section 2.3)', () => {
  it('accepts HTTP Basic credentials (client_secret_basic) with no secret in the form', async () => {
    const setup = await oauthSetup(fixture(), scope);
    const { clientId, clientSecret } = setup.client;
    const reply = await tokenCall(
      setup,
      codeFields(setup, await approvedCode(setup)),
      basic(clientId, clientSecret),
    );
    const tokens = bodyOf<TokenResponse>(reply, 200);
    const refreshed = await tokenCall(
      setup,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId },
      basic(clientId, clientSecret),
    );
    expect(refreshed.status).toBe(200);
  });

  it('answers a wrong Basic secret with 401 invalid_client and a Basic challenge', async () => {
    const setup = await oauthSetup(fixture(), scope);
    const reply = await tokenCall(
      setup,
      codeFields(setup, await approvedCode(setup)),
      basic(setup.client.clientId, 'cs_wrong'),
    );
    expect(refusal(reply)).toMatchObject({ status: 401, error: 'invalid_client' });
    expect(reply.headers['www-authenticate']).toMatch(/^Basic realm=/);
  });

  const refusals: Array<
    [string, { given: (setup: OAuthSetup, code: string) => Promise<Reply>; want: object }]
  > = [
    [
      'Basic and client_secret in the form at once',
      {
        given: (setup, code) =>
          tokenCall(
            setup,
            {
              ...codeFields(setup, code),
              client_id: setup.client.clientId,
              client_secret: setup.client.clientSecret,
            },
            basic(setup.client.clientId, setup.client.clientSecret),
          ),
        want: { status: 400, error: 'invalid_request', description: expect.stringMatching(/one method/) },
      },
    ],
    [
      'a form client_id other than the Basic user',
      {
        given: (setup, code) =>
          tokenCall(
            setup,
            { ...codeFields(setup, code), client_id: 'cl_someoneelse' },
            basic(setup.client.clientId, setup.client.clientSecret),
          ),
        want: { status: 400, error: 'invalid_request', description: expect.stringMatching(/differs/) },
      },
    ],
    [
      'no client authentication at all',
      {
        given: (setup, code) => tokenCall(setup, codeFields(setup, code)),
        want: { status: 401, error: 'invalid_client', description: expect.stringMatching(/HTTP Basic/) },
      },
    ],
    [
      'a Bearer header instead of Basic',
      {
        given: (setup, code) => tokenCall(setup, codeFields(setup, code), 'Bearer abc'),
        want: { status: 401, error: 'invalid_client', description: expect.stringMatching(/not HTTP Basic/) },
      },
    ],
    [
      'a missing code_verifier',
      {
        given: (setup, code) => {
          const { code_verifier: _left, ...fields } = codeFields(setup, code);
          return tokenCall(setup, fields, basic(setup.client.clientId, setup.client.clientSecret));
        },
        want: {
          status: 400,
          error: 'invalid_grant',
          description: expect.stringMatching(/code_verifier is missing/),
        },
      },
    ],
  ];
  it.each(refusals)('refuses %s', async (_name, { given, want }) => {
    const setup = await oauthSetup(fixture(), scope);
    expect(refusal(await given(setup, await approvedCode(setup)))).toEqual(want);
  });
});

describe('authorization code reuse (RFC 6749 section 4.1.2)', () => {
  it('revokes the refresh token issued for a code when the code comes back', async () => {
    const setup = await oauthSetup(fixture(), scope);
    const authorization = basic(setup.client.clientId, setup.client.clientSecret);
    const code = await approvedCode(setup);
    const first = bodyOf<TokenResponse>(await tokenCall(setup, codeFields(setup, code), authorization), 200);
    const again = refusal(await tokenCall(setup, codeFields(setup, code), authorization));
    expect(again).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      description: expect.stringMatching(/revoked/),
    });
    const refresh = { grant_type: 'refresh_token', refresh_token: first.refresh_token };
    expect(refusal(await tokenCall(setup, refresh, authorization))).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      description: 'The refresh token was revoked.',
    });
  });
});

describe('PKCE (RFC 9700 section 2.1.1)', () => {
  async function publicSetup(): Promise<OAuthSetup> {
    const setup = await oauthSetup(fixture(), scope);
    const service = fixture();
    const client = await createPublicOAuthClient(
      service.store,
      service.clock,
      setup.accountId,
      'SPA',
      redirectUris,
    );
    return {
      ...setup,
      client: { ...client, clientSecret: '' },
      request: { ...setup.request, client_id: client.clientId },
    };
  }

  it('sends a public client without code_challenge back with invalid_request and no code', async () => {
    const setup = await publicSetup();
    const { code_challenge: _challenge, code_challenge_method: _method, ...query } = setup.request;
    const location = locationOf(await setup.call('oauthAuthorize', { query }));
    expect(location?.searchParams.get('error')).toBe('invalid_request');
    expect(location?.searchParams.get('error_description')).toMatch(
      /code_challenge is required: this client is public/,
    );
    expect(location?.searchParams.get('code')).toBeNull();
    expect(location?.searchParams.get('state')).toBe(setup.request.state);
  });

  it('lets a public client exchange and refresh with client_id alone, and refuses it a secret', async () => {
    const setup = await publicSetup();
    const code = await approvedCode(setup);
    const fields = { ...codeFields(setup, code), client_id: setup.client.clientId };
    expect(refusal(await tokenCall(setup, { ...fields, client_secret: 'cs_guess' }))).toMatchObject({
      status: 401,
      error: 'invalid_client',
      description: expect.stringMatching(/public/),
    });
    const tokens = bodyOf<TokenResponse>(await tokenCall(setup, fields), 200);
    const refresh = {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: setup.client.clientId,
    };
    expect((await tokenCall(setup, refresh)).status).toBe(200);
  });

  it('lets a confidential client go without PKCE, but refuses a verifier for a code that had no challenge', async () => {
    const setup = await oauthSetup(fixture(), scope);
    const { code_challenge: _challenge, code_challenge_method: _method, ...request } = setup.request;
    const withoutPkce = { ...setup, request };
    const authorization = basic(setup.client.clientId, setup.client.clientSecret);
    const downgrade = await tokenCall(
      setup,
      codeFields(setup, await approvedCode(withoutPkce)),
      authorization,
    );
    expect(refusal(downgrade)).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      description: expect.stringMatching(/no code_challenge/),
    });
    const { code_verifier: _verifier, ...fields } = codeFields(setup, await approvedCode(withoutPkce));
    expect((await tokenCall(setup, fields, authorization)).status).toBe(200);
  });
});

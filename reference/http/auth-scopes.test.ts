// Authentication and scopes across every protected REST operation: each credential of the table against each
// operation of `routes`, with the outcome the spec's security and key types give.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../generated/types/errors.js';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import { AccessTokens } from '../auth/access-tokens.js';
import { newApiKey } from '../auth/api-keys.js';
import { isoTime } from '../clock.js';
import type { ErrorCode } from '../problems.js';
import { type CreatedAccount, createApiKey } from '../seed.js';
import { AccountResources, restCaller } from '../testing/account-resources.js';
import { type Reply, type RestOperationId, restOperationIds } from '../testing/call-operation.js';
import { allOAuthScopes, oauthSchemeName, publishableMayCall, scopesOf } from '../testing/credentials.js';
import { expectEnvelope } from '../testing/expect-problem.js';
import { isProtected, scenarios, successStatus } from '../testing/operation-scenarios.js';
import { type ServiceFixture, useServiceFixture } from '../testing/service-fixture.js';

const fixture = useServiceFixture();
const challengedCodes = new Set<string>(['insufficient_scope']);

/** A reply as one comparable line: the status, the code, and the Bearer challenge of 401s and scope refusals. */
function outcome(reply: Reply): string {
  if (reply.status < 400) return String(reply.status);
  const { error } = expectEnvelope(reply);
  if (reply.status !== 401 && !challengedCodes.has(error.code)) return `${reply.status} ${error.code}`;
  const challenge = String(reply.headers['www-authenticate'] ?? '(no challenge)');
  const scope = /scope="([^"]*)"/.exec(challenge)?.[1];
  const scheme = challenge.split(' ')[0];
  return `${reply.status} ${error.code} (${scheme}${scope === undefined ? '' : ` scope="${scope}"`})`;
}

const refused = (code: ErrorCode, scope?: string) => {
  const { status } = errorCodes[code];
  if (status !== 401 && !challengedCodes.has(code)) return `${status} ${code}`;
  return `${status} ${code} (Bearer${scope === undefined ? '' : ` scope="${scope}"`})`;
};

interface CaseContext {
  service: ServiceFixture;
  account: CreatedAccount;
  operationId: RestOperationId;
}

const bearer = (token: string) => `Bearer ${token}`;
const issue = (service: ServiceFixture, account: CreatedAccount, scopes: readonly string[]) =>
  service.dependencies.accessTokens.issue({
    accountId: account.accountId,
    clientId: 'cl_test',
    grantId: 'grant_test',
    scope: scopes.join(' '),
  });
const oauthScopes = (operationId: RestOperationId) => scopesOf(operationId, oauthSchemeName);
const revoke = (service: ServiceFixture, keyId: string) =>
  service.store.apiKeys.revoke(keyId, isoTime(service.clock));

/** Each credential: how to make its Authorization header, and what the operation must answer to it. */
const credentialCases: Array<
  [
    string,
    {
      given: (context: CaseContext) => Promise<string | null>;
      want: (operationId: RestOperationId) => string;
    },
  ]
> = [
  ['no Authorization', { given: async () => null, want: () => refused('missing_token') }],
  ['Basic scheme', { given: async () => 'Basic x', want: () => refused('invalid_token') }],
  [
    'unknown key',
    { given: async () => bearer(newApiKey('secret').key), want: () => refused('invalid_token') },
  ],
  [
    'revoked key',
    {
      given: async ({ service, account }) => {
        const key = await createApiKey(service.store, service.clock, account.accountId, 'secret');
        await revoke(service, key.id);
        return bearer(key.key);
      },
      want: () => refused('key_revoked'),
    },
  ],
  [
    'rolled key, the old one',
    {
      given: async ({ service, account }) => {
        const old = await createApiKey(service.store, service.clock, account.accountId, 'secret');
        await revoke(service, old.id);
        await createApiKey(service.store, service.clock, account.accountId, 'secret');
        return bearer(old.key);
      },
      want: () => refused('key_revoked'),
    },
  ],
  [
    'rolled key, the new one',
    {
      given: async ({ service, account }) => {
        const old = await createApiKey(service.store, service.clock, account.accountId, 'secret');
        await revoke(service, old.id);
        return bearer((await createApiKey(service.store, service.clock, account.accountId, 'secret')).key);
      },
      want: (operationId) => String(successStatus(operationId)),
    },
  ],
  [
    'secret key',
    {
      given: async ({ account }) => bearer(account.keys.secret.key),
      want: (operationId) => String(successStatus(operationId)),
    },
  ],
  [
    'publishable key',
    {
      given: async ({ account }) => bearer(account.keys.publishable.key),
      want: (operationId) =>
        publishableMayCall(operationId)
          ? String(successStatus(operationId))
          : refused('publishable_key_forbidden'),
    },
  ],
  [
    'access token with exactly the scope',
    {
      given: async ({ service, account, operationId }) =>
        bearer(await issue(service, account, oauthScopes(operationId))),
      want: (operationId) => String(successStatus(operationId)),
    },
  ],
  [
    'access token with every other scope',
    {
      given: async ({ service, account, operationId }) => {
        const others = allOAuthScopes.filter((scope) => !oauthScopes(operationId).includes(scope));
        return bearer(await issue(service, account, others));
      },
      want: (operationId) => refused('insufficient_scope', oauthScopes(operationId).join(' ')),
    },
  ],
  [
    'expired access token',
    {
      given: async ({ service, account, operationId }) => {
        const token = await issue(service, account, oauthScopes(operationId));
        service.clock.advance(securitySchemeFacts.OAuth2.tokenLifetimes.accessTokenSeconds * 1000);
        return bearer(token);
      },
      want: () => refused('token_expired'),
    },
  ],
  [
    'access token signed with another key',
    {
      given: async ({ service, account, operationId }) => {
        const stranger = new AccessTokens(new Uint8Array(randomBytes(32)), service.clock);
        return bearer(
          await stranger.issue({
            accountId: account.accountId,
            clientId: 'cl_test',
            grantId: 'grant_test',
            scope: oauthScopes(operationId).join(' '),
          }),
        );
      },
      want: () => refused('invalid_token'),
    },
  ],
];

describe('credentials against every protected operation', () => {
  it.each(restOperationIds.filter(isProtected))('%s', async (operationId) => {
    const service = fixture();
    const call = restCaller(service);
    const account = await service.createAccount();
    const observed: Record<string, string> = {};
    const wanted: Record<string, string> = {};
    for (const [name, { given, want }] of credentialCases) {
      const parts = await scenarios[operationId](new AccountResources(call, account.keys.secret.key));
      const authorization = await given({ service, account, operationId });
      const headers = { ...parts.headers, ...(authorization === null ? {} : { authorization }) };
      observed[name] = outcome(await call(operationId, { ...parts, token: null, headers }));
      wanted[name] = want(operationId);
    }
    expect(observed).toEqual(wanted);
  });

  it('the public feed needs no credential', async () => {
    const service = fixture();
    const account = await service.createAccount();
    const call = restCaller(service);
    const parts = await scenarios.getReportFeed(new AccountResources(call, account.keys.secret.key));
    expect(outcome(await call('getReportFeed', parts))).toBe(String(successStatus('getReportFeed')));
  });
});

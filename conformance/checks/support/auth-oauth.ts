// The OAuth 2.0 authorization code flow against {auth_url}, black-box: authorize (auto-approved with login_hint, or
// consented through the spec's form with a secret key of the paid account), then the token endpoint.
import { createHash, randomBytes } from 'node:crypto';
import { routes } from '../../../generated/server/routes.js';
import type { OAuthError } from '../../../generated/types/schemas.js';
import { validateOAuthError, validateOauthTokenResponse200 } from '../../../generated/validators/index.js';
import { expectThat } from '../../harness/check.js';
import { type Exchange, type Server, send } from '../../harness/probe.js';
import { currentTarget } from '../../harness/target.js';
import { fieldOf, oauthErrorOf } from './auth-evidence.js';
import { spareSecretKey } from './auth-keys.js';
import { judgesInferred } from './rest-requirements.js';

export interface OAuthMeans {
  client: { clientId: string; clientSecret: string; redirectUri: string };
  /** `login-hint`: the target grants at GET for the hinted account; `form`: consent is POSTed with `consentKey`. */
  consent: { kind: 'login-hint'; accountId: string } | { kind: 'form'; consentKey: string };
  /** Where the flow's requests go: the target's `{auth_url}` by default, or the fast-clock twin's. */
  authServer?: Server;
}

/** What the target gives for the flow, or the reason it gives too little (for `skip`). */
export function oauthMeans(): OAuthMeans | string {
  const target = currentTarget();
  if (target.authUrl === null) return 'the target has no auth URL (--auth-url)';
  if (target.oauth === null)
    return 'the target names no OAuth client (--oauth-client-id, --oauth-client-secret, --oauth-redirect-uri)';
  if (target.autoApproveConsent && target.paidAccountId !== null)
    return { client: target.oauth, consent: { kind: 'login-hint', accountId: target.paidAccountId } };
  const consentKey = spareSecretKey();
  if (consentKey === null) return 'the target names no paid secret key to give consent with (--paid-key)';
  return { client: target.oauth, consent: { kind: 'form', consentKey } };
}

/** The consent form, whatever the target's switch: it needs a secret key of the paid account. */
export function formMeans(): OAuthMeans | string {
  const means = oauthMeans();
  if (typeof means === 'string') return means;
  const consentKey = spareSecretKey();
  if (consentKey === null) return 'the target names no paid secret key to give consent with (--paid-key)';
  return { client: means.client, consent: { kind: 'form', consentKey } };
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/** An RFC 7636 S256 pair: a 43-character verifier and BASE64URL(SHA256(verifier)). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash('sha256').update(verifier).digest()) };
}

/** A redirect URI the client did not register: its registered one with a path segment more. */
export function unregisteredRedirectUri(means: OAuthMeans): string {
  const elsewhere = new URL(means.client.redirectUri);
  elsewhere.pathname = `${elsewhere.pathname.replace(/\/$/, '')}/elsewhere`;
  return elsewhere.toString();
}

/** An anti-CSRF value with characters that must survive URL encoding both ways. */
export function freshState(): string {
  return `${base64url(randomBytes(12))} +/=&?%`;
}

export interface AuthorizationParameters {
  scope: string;
  state?: string | null;
  challenge?: string;
  challengeMethod?: string;
  clientId?: string;
  redirectUri?: string;
  /** `code` unless a check asks for another. */
  responseType?: string;
}

/** The query (or form) of an authorization request; `state: null` leaves state out. */
export function authorizationFields(
  means: OAuthMeans,
  parameters: AuthorizationParameters,
): Record<string, string> {
  const fields: Record<string, string> = {
    client_id: parameters.clientId ?? means.client.clientId,
    redirect_uri: parameters.redirectUri ?? means.client.redirectUri,
    response_type: parameters.responseType ?? 'code',
    scope: parameters.scope,
  };
  if (parameters.state !== null) fields.state = parameters.state ?? freshState();
  if (parameters.challenge !== undefined) fields.code_challenge = parameters.challenge;
  // A method goes with a challenge (S256 unless told), or alone when a check sends it without one.
  if (parameters.challenge !== undefined || parameters.challengeMethod !== undefined)
    fields.code_challenge_method = parameters.challengeMethod ?? 'S256';
  return fields;
}

function formOptions(
  fields: Record<string, string> | ReadonlyArray<readonly [string, string]>,
  server: Server,
) {
  return {
    key: null,
    server,
    rawBody: new URLSearchParams(fields as Record<string, string> | [string, string][]).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

/** GET /oauth/authorize as a browser would send it (with login_hint when the target auto-approves). */
export async function authorizeRequest(
  means: OAuthMeans,
  parameters: AuthorizationParameters,
): Promise<Exchange> {
  const query = authorizationFields(means, parameters);
  if (means.consent.kind === 'login-hint') query.login_hint = means.consent.accountId;
  return send(routes.oauthAuthorize.method, routes.oauthAuthorize.url, {
    key: null,
    server: means.authServer ?? 'auth',
    query,
  });
}

/** POST /oauth/authorize: the consent form, repeating the request, with a decision and the owner's secret key. */
export async function consentRequest(
  means: OAuthMeans,
  parameters: AuthorizationParameters,
  decision: 'approve' | 'deny',
  apiKey?: string,
): Promise<Exchange> {
  const key = apiKey ?? (means.consent.kind === 'form' ? means.consent.consentKey : '');
  const fields = { ...authorizationFields(means, parameters), decision, api_key: key };
  return send(
    routes.oauthConsent.method,
    routes.oauthConsent.url,
    formOptions(fields, means.authServer ?? 'auth'),
  );
}

/**
 * The whole authorization step as the user would go through it: auto-approved at GET, or the consent page then the
 * approving form. Returns the exchange that should redirect back to the client.
 */
export async function authorize(means: OAuthMeans, parameters: AuthorizationParameters): Promise<Exchange> {
  const first = await authorizeRequest(means, parameters);
  if (means.consent.kind === 'login-hint') return first;
  expectThat(first.response.status === 200, 'the consent page (200) before consent is given', first);
  return consentRequest(means, parameters, 'approve');
}

/** Where a 302 sends the browser: whether to the registered redirect URI, and its query (empty without a redirect). */
export function redirectOf(
  exchange: Exchange,
  means: OAuthMeans,
): { toClient: boolean; parameters: URLSearchParams } {
  const location = exchange.response.headers.location;
  if (exchange.response.status !== 302 || location === undefined)
    return { toClient: false, parameters: new URLSearchParams() };
  const url = new URL(location, means.client.redirectUri);
  const registered = new URL(means.client.redirectUri);
  return {
    toClient: url.origin === registered.origin && url.pathname === registered.pathname,
    parameters: url.searchParams,
  };
}

export interface GrantedCode {
  code: string;
  state: string;
  verifier: string;
  exchange: Exchange;
}

/** An authorization code for `scope`, with PKCE S256; fails the check with evidence when none comes back. */
export async function obtainCode(means: OAuthMeans, scope: string): Promise<GrantedCode> {
  const { verifier, challenge } = pkcePair();
  const state = freshState();
  const exchange = await authorize(means, { scope, state, challenge });
  const redirect = redirectOf(exchange, means);
  const code = redirect.parameters.get('code');
  expectThat(redirect.toClient && code !== null, '302 to the registered redirect_uri with a code', exchange);
  return { code, state, verifier, exchange };
}

/** POST /oauth/token with form fields, as the spec's exchange and refresh describe it; a null field is left out. */
export async function tokenRequest(
  fields: Record<string, string | null>,
  server: Server = 'auth',
): Promise<Exchange> {
  const present = Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== null);
  return send(
    routes.oauthToken.method,
    routes.oauthToken.url,
    formOptions(Object.fromEntries(present), server),
  );
}

/** The token endpoint with `pairs` as its form, in their order, a name as often as it is given. */
export async function tokenRequestPairs(
  pairs: ReadonlyArray<readonly [string, string]>,
  server: Server = 'auth',
): Promise<Exchange> {
  return send(routes.oauthToken.method, routes.oauthToken.url, formOptions(pairs, server));
}

export async function exchangeCode(
  means: OAuthMeans,
  granted: GrantedCode,
  overrides: Record<string, string | null> = {},
): Promise<Exchange> {
  return tokenRequest(
    {
      grant_type: 'authorization_code',
      code: granted.code,
      redirect_uri: means.client.redirectUri,
      client_id: means.client.clientId,
      client_secret: means.client.clientSecret,
      code_verifier: granted.verifier,
      ...overrides,
    },
    means.authServer,
  );
}

export async function refreshTokens(
  means: OAuthMeans,
  refreshToken: string,
  overrides: Record<string, string | null> = {},
): Promise<Exchange> {
  return tokenRequest(
    {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: means.client.clientId,
      client_secret: means.client.clientSecret,
      ...overrides,
    },
    means.authServer,
  );
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
  exchange: Exchange;
}

/** A token response, valid against the spec's schema; fails the check with evidence otherwise. */
export function tokensOf(exchange: Exchange): Tokens {
  const verdict = validateOauthTokenResponse200(exchange.response.body);
  expectThat(
    exchange.response.status === 200 && verdict.ok,
    `200 with a token response valid against its schema (${verdict.ok ? '' : verdict.error.message})`,
    exchange,
  );
  const { access_token, refresh_token, scope } = verdict.value;
  return { access_token, refresh_token, scope, exchange };
}

/** Code, then tokens, for `scope`. */
export async function obtainTokens(means: OAuthMeans, scope: string): Promise<Tokens> {
  const granted = await obtainCode(means, scope);
  return tokensOf(await exchangeCode(means, granted));
}

/** RFC 6749 appendix A.5: an error_description is one or more printable ASCII characters other than `"` and `\`. */
const errorDescriptionText = /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * Whether an error_description, when there is one, is text RFC 6749 allows (appendix A.5; not judged under the
 * documented profile: the token endpoint's error bodies are the spec's inference).
 */
export function describedAsRfc6749Allows(description: unknown): boolean {
  if (!judgesInferred() || description === undefined) return true;
  return typeof description === 'string' && errorDescriptionText.test(description);
}

/**
 * An RFC 6749 error body of the token endpoint with this status and `error` (401 for invalid_client, RFC 6749 5.2),
 * its error_description, if any, not empty.
 */
export function expectOAuthError(
  exchange: Exchange,
  status: number,
  error: OAuthError['error'],
  when: string,
): void {
  const verdict = validateOAuthError(exchange.response.body);
  const described = describedAsRfc6749Allows(fieldOf(exchange.response.body, 'error_description'));
  expectThat(
    exchange.response.status === status && verdict.ok && oauthErrorOf(exchange) === error && described,
    `${status} with an RFC 6749 body ${JSON.stringify({ error })} ${when}${verdict.ok ? '' : ` (${verdict.error.message})`}${described ? '' : ' and an error_description of one or more characters RFC 6749 appendix A.5 allows'}`,
    exchange,
  );
}

// Copied by `npm run generate` from runtime/http/oauth.ts. Do not edit: change runtime/ and regenerate.

import { apiErrorFrom, parseBodyText } from './api-error.js';
import { OAuthTokenAuth, type OAuthTokenAuthOptions, type TokenSet } from './auth.js';
import { isOAuthErrorBody, OAuthError } from './oauth-error.js';
import { codeChallengeS256, createCodeVerifier, createState } from './pkce.js';
import { assertNotPlaceholder } from './placeholder-url.js';
import { callSignal } from './request.js';

/** A token endpoint's success answer (RFC 6749 section 5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
}

export interface OAuthClientOptions {
  authorizationUrl: string;
  tokenUrl: string;
  clientId: string;
  /** Absent for a public client, which then relies on PKCE alone. */
  clientSecret?: string;
  redirectUri: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

/** The authorization code flow with PKCE S256: the authorize URL, the code exchange and the refresh grant. */
export class OAuthClient<Scope extends string = string, Tokens extends TokenResponse = TokenResponse> {
  constructor(readonly options: OAuthClientOptions) {}

  /** Keep `state` and `codeVerifier` until the redirect comes back: compare the state, send the verifier. */
  authorizeUrl(request: { scopes: readonly Scope[]; state?: string }) {
    const state = request.state ?? createState();
    const codeVerifier = createCodeVerifier();
    assertNotPlaceholder(this.options.authorizationUrl, 'authorizationUrl', 'createOAuthClient');
    const url = new URL(this.options.authorizationUrl);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.options.clientId,
      redirect_uri: this.options.redirectUri,
      scope: request.scopes.join(' '),
      state,
      code_challenge: codeChallengeS256(codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    return { url: url.toString(), state, codeVerifier };
  }

  exchangeCode(code: string, codeVerifier: string): Promise<Tokens> {
    const { redirectUri } = this.options;
    const grant = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
    };
    return this.#postToken(grant);
  }

  refresh(refreshToken: string): Promise<Tokens> {
    return this.#postToken({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /** The token answer as the client keeps it, with the expiry as a moment rather than a lifetime. */
  tokenSet(response: TokenResponse): TokenSet {
    const now = (this.options.now ?? Date.now)();
    return {
      accessToken: response.access_token,
      refreshToken: response.refresh_token ?? null,
      expiresAt: response.expires_in === undefined ? null : now + response.expires_in * 1000,
    };
  }

  /** An authenticator for createClient that refreshes through this client's token endpoint. */
  tokenAuth(
    tokens: TokenSet,
    options: Omit<OAuthTokenAuthOptions, 'tokens' | 'refresh'> = {},
  ): OAuthTokenAuth {
    const refresh = async (refreshToken: string) => this.tokenSet(await this.refresh(refreshToken));
    return new OAuthTokenAuth({
      ...options,
      now: options.now ?? this.options.now ?? Date.now,
      tokens,
      refresh,
    });
  }

  async #postToken(grant: Record<string, string>): Promise<Tokens> {
    const { clientId, clientSecret, timeoutMs } = this.options;
    const form = new URLSearchParams({ ...grant, client_id: clientId });
    if (clientSecret !== undefined) form.set('client_secret', clientSecret);
    assertNotPlaceholder(this.options.tokenUrl, 'tokenUrl', 'createOAuthClient');
    const response = await (this.options.fetch ?? fetch)(this.options.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: callSignal(timeoutMs, undefined),
    });
    const body = parseBodyText(await response.text());
    if (response.ok) return body as Tokens;
    if (isOAuthErrorBody(body)) throw new OAuthError(response.status, body);
    throw apiErrorFrom(response.status, response.headers, body, {});
  }
}

// Copied by `npm run generate` from runtime/http/auth.ts. Do not edit: change runtime/ and regenerate.

/** What the transport asks of a credential: the Authorization header, and a chance to renew it after a 401. */
export interface Authenticator {
  authorization(): Promise<string | null>;
  /**
   * Called once per request after a 401 with the header that request sent; true when a new credential is in place and
   * the request is worth sending again (a 401 means the request was not processed, so any method may be re-sent).
   */
  renewAfterUnauthorized?(rejected: string): Promise<boolean>;
}

/** An API key sent as a bearer token. */
export function apiKeyAuth(apiKey: string): Authenticator {
  return { authorization: async () => `Bearer ${apiKey}` };
}

/** HTTP Basic credentials (RFC 7617), for APIs that use them. */
export function basicAuth(user: string, password: string): Authenticator {
  const credentials = Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
  return { authorization: async () => `Basic ${credentials}` };
}

/** OAuth tokens as the client keeps them; `expiresAt` in epoch milliseconds, null when unknown. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
}

export interface OAuthTokenAuthOptions {
  tokens: TokenSet;
  /** Exchanges a refresh token for new tokens (the token endpoint's refresh grant). */
  refresh: (refreshToken: string) => Promise<TokenSet>;
  /** Called with every new token set, to persist it: refresh tokens rotate, so the old one is spent. */
  onTokens?: (tokens: TokenSet) => void | Promise<void>;
  /** Renew this long before expiry, so a token does not expire in flight. */
  refreshMarginMs?: number;
  now?: () => number;
}

/** OAuth access tokens renewed before they expire, or once after a 401; concurrent callers share one refresh. */
export class OAuthTokenAuth implements Authenticator {
  #tokens: TokenSet;
  #refreshing: Promise<TokenSet> | null = null;
  readonly #options: OAuthTokenAuthOptions;

  constructor(options: OAuthTokenAuthOptions) {
    this.#options = options;
    this.#tokens = options.tokens;
  }

  get tokens(): TokenSet {
    return this.#tokens;
  }

  async authorization(): Promise<string> {
    const { expiresAt, refreshToken } = this.#tokens;
    const now = (this.#options.now ?? Date.now)();
    const margin = this.#options.refreshMarginMs ?? 30_000;
    if (expiresAt !== null && refreshToken !== null && expiresAt - margin <= now) await this.#refresh();
    return `Bearer ${this.#tokens.accessToken}`;
  }

  async renewAfterUnauthorized(rejected: string): Promise<boolean> {
    if (rejected !== `Bearer ${this.#tokens.accessToken}`) return true;
    if (this.#tokens.refreshToken === null) return false;
    await this.#refresh();
    return true;
  }

  #refresh(): Promise<TokenSet> {
    this.#refreshing ??= this.#renew().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #renew(): Promise<TokenSet> {
    const tokens = await this.#options.refresh(this.#tokens.refreshToken ?? '');
    this.#tokens = { ...tokens, refreshToken: tokens.refreshToken ?? this.#tokens.refreshToken };
    await this.#options.onTokens?.(this.#tokens);
    return this.#tokens;
  }
}

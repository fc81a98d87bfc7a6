// Copied by `npm run generate` from runtime/http/pkce.ts. Do not edit: change runtime/ and regenerate.

import { createHash, randomBytes } from 'node:crypto';

/** A PKCE code_verifier (RFC 7636 section 4.1): 32 random bytes, base64url, 43 characters. */
export function createCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** The S256 code_challenge: BASE64URL(SHA256(ASCII(code_verifier))) (RFC 7636 section 4.2). */
export function codeChallengeS256(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
}

/** An unguessable `state` value that ties the redirect back to the request that started it. */
export function createState(): string {
  return randomBytes(16).toString('base64url');
}

import { createHash } from 'node:crypto';
import { sameSecret } from './secrets.js';

/** RFC 7636 S256: BASE64URL(SHA256(code_verifier)) must equal the challenge sent with the authorization request. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = createHash('sha256').update(verifier).digest('base64url');
  return sameSecret(computed, challenge);
}

import { securitySchemeFacts } from '../../generated/types/facts.js';
import { randomMatching } from '../random-token.js';
import { digest } from './secrets.js';

const keyTypes = securitySchemeFacts.ApiKey.keyTypes;

/** The security scheme that API keys satisfy: the one carrying `x-key-types`. */
export const apiKeySchemeName =
  // Stryker disable next-line OptionalChaining,StringLiteral: equivalent, the generated facts always hold that scheme (keyTypes above reads it)
  Object.entries(securitySchemeFacts).find(([, facts]) => 'keyTypes' in facts)?.[0] ?? '';

/** The key kinds of the spec's ApiKey scheme (`secret`, `publishable`). */
export type ApiKeyKind = 'secret' | 'publishable';
export const apiKeyKinds: readonly ApiKeyKind[] = ['secret', 'publishable'];

/** A new key of a kind, in the spec's format; only its digest is ever stored. */
export function newApiKey(kind: ApiKeyKind): { key: string; hash: string } {
  const key = randomMatching(keyTypes[kind].pattern);
  return { key, hash: digest(key) };
}

/** Each kind's format, compiled once: every authenticated request asks which kind its token is. */
const keyFormats = apiKeyKinds.map((kind) => ({ kind, format: new RegExp(keyTypes[kind].pattern) }));

/** Which kind a bearer token is by its format, or null when it is not an API key (an OAuth access token, or junk). */
export function apiKeyKindOf(token: string): ApiKeyKind | null {
  return keyFormats.find(({ format }) => format.test(token))?.kind ?? null;
}

/** The scopes a key kind holds: `all` for secret keys, the listed read scopes for publishable ones. */
export function scopesOfKeyKind(kind: ApiKeyKind): 'all' | readonly string[] {
  return keyTypes[kind].scopes;
}

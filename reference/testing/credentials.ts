import { routes } from '../../generated/server/routes.js';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import { apiKeySchemeName } from '../auth/api-keys.js';
import type { OperationId } from './call-operation.js';

/** The OAuth 2.0 scheme: the one with token lifetimes. */
export const oauthSchemeName =
  Object.entries(securitySchemeFacts).find(([, facts]) => 'tokenLifetimes' in facts)?.[0] ?? '';

export const publishableScopes: readonly string[] = securitySchemeFacts.ApiKey.keyTypes.publishable.scopes;
export const allOAuthScopes = Object.keys(securitySchemeFacts.OAuth2.scopes);

/** The scopes an operation requires of one security scheme (empty when the scheme is not among its alternatives). */
export function scopesOf(operationId: OperationId, schemeName: string): readonly string[] {
  const requirement = routes[operationId].security.find((alternative) =>
    alternative.schemes.some((scheme) => scheme.name === schemeName),
  );
  return requirement?.schemes.find((scheme) => scheme.name === schemeName)?.scopes ?? [];
}

/** A publishable key may call an operation when it holds every scope the operation's ApiKey alternative lists. */
export const publishableMayCall = (operationId: OperationId): boolean =>
  scopesOf(operationId, apiKeySchemeName).every((scope) => publishableScopes.includes(scope));

// The target's other OAuth clients (a second confidential one, a public one) as means for the flow, and token requests
// the target refuses, sent from a loopback address of their own.
import { routes } from '../../../generated/server/routes.js';
import { ownLoopbackAddress, requestFrom } from '../../harness/address-client.js';
import { type Exchange, send } from '../../harness/probe.js';
import { currentTarget } from '../../harness/target.js';
import { type OAuthMeans, oauthMeans } from './auth-oauth.js';

/** The first client's flow (its consent) for `client`, or why there is none (`missing` when the target names none). */
function meansFor(client: OAuthMeans['client'] | null, missing: string): OAuthMeans | string {
  const means = oauthMeans();
  if (typeof means === 'string') return means;
  return client === null ? missing : { ...means, client };
}

/** The target's second confidential client, consenting as the first client's flow does, or why there is none. */
export function secondClientMeans(): OAuthMeans | string {
  return meansFor(
    currentTarget().oauthSecondClient,
    'the target names no second OAuth client (--oauth-second-client-id, --oauth-second-client-secret, --oauth-second-redirect-uri)',
  );
}

/**
 * The target's public client, consenting as the first client's flow does, or why there is none. It has no secret:
 * `clientSecret` is empty, and its token requests send `client_secret: null` (left out).
 */
export function publicClientMeans(): OAuthMeans | string {
  const client = currentTarget().oauthPublicClient;
  return meansFor(
    client === null ? null : { ...client, clientSecret: '' },
    'the target names no public OAuth client (--oauth-public-client-id, --oauth-public-redirect-uri)',
  );
}

export type TokenSender = (
  fields: Record<string, string | null>,
  headers?: Record<string, string>,
) => Promise<Exchange>;

/**
 * POST {auth_url}/oauth/token with form fields (a null one left out) and extra headers. A refused grant or client
 * authentication counts against the sending address (x-rate-limit.perAddress): against a plain-HTTP target on
 * loopback these requests come from a loopback address of their own, one per sender, and take nothing from the run's
 * address budget; elsewhere they go through the budget like any probe.
 */
export function tokenSender(authUrl: string): TokenSender {
  const ownAddress = authUrl.startsWith('http:') ? ownLoopbackAddress(authUrl) : null;
  const url = `${authUrl.replace(/\/+$/, '')}${routes.oauthToken.url}`;
  return (fields, extraHeaders = {}) => {
    const present = Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== null);
    const body = new URLSearchParams(present).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', ...extraHeaders };
    if (ownAddress === null)
      return send(routes.oauthToken.method, routes.oauthToken.url, {
        key: null,
        server: 'auth',
        rawBody: body,
        headers,
      });
    return requestFrom(ownAddress, { method: routes.oauthToken.method.toUpperCase(), url, headers, body });
  };
}

// The target's other OAuth clients (a second confidential one, a public one) as means for the flow, and token requests
// the target refuses, sent from a loopback address of their own.
import { routes } from '../../../generated/server/routes.js';
import { ownLoopbackAddress, requestFrom } from '../../harness/address-client.js';
import { type Exchange, send } from '../../harness/probe.js';
import { currentTarget } from '../../harness/target.js';
import { type OAuthMeans, oauthMeans } from './auth-oauth.js';

/** The target's second confidential client, consenting as the first client's flow does, or why there is none. */
export function secondClientMeans(): OAuthMeans | string {
  const means = oauthMeans();
  if (typeof means === 'string') return means;
  const second = currentTarget().oauthSecondClient;
  if (second === null)
    return 'the target names no second OAuth client (--oauth-second-client-id, --oauth-second-client-secret, --oauth-second-redirect-uri)';
  return { ...means, client: second };
}

/**
 * The target's public client, consenting as the first client's flow does, or why there is none. It has no secret:
 * `clientSecret` is empty, and its token requests send `client_secret: null` (left out).
 */
export function publicClientMeans(): OAuthMeans | string {
  const means = oauthMeans();
  if (typeof means === 'string') return means;
  const client = currentTarget().oauthPublicClient;
  if (client === null)
    return 'the target names no public OAuth client (--oauth-public-client-id, --oauth-public-redirect-uri)';
  return { ...means, client: { ...client, clientSecret: '' } };
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

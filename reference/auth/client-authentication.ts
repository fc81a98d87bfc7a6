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
  if (form.client_id === undefined) {
    throw new OAuthError(
      'invalid_client',
      'No client authentication: send HTTP Basic credentials (client_id:client_secret) or client_id and client_secret in the form.',
    );
  }
  if (form.client_secret === undefined) return { clientId: form.client_id, method: 'none' };
  return { clientId: form.client_id, clientSecret: form.client_secret, method: 'client_secret_post' };
}

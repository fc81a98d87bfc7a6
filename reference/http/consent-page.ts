import { securitySchemeFacts } from '../../generated/types/facts.js';
import type { AuthorizationRequest } from '../auth/authorization-requests.js';

const scopeDescriptions: Record<string, string> = securitySchemeFacts.OAuth2.scopes;

export function escapeHtml(text: string): string {
  return text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>\n`;
}

export function errorPage(message: string): string {
  return page('Authorization failed', `<h1>Authorization failed</h1><p>${escapeHtml(message)}</p>`);
}

/**
 * The consent page: what the client asks for, and a form that repeats the request (the service keeps no session)
 * with the owner's secret API key standing in for a dashboard login.
 */
export function consentPage(request: AuthorizationRequest, action: string): string {
  const hidden = {
    client_id: request.client.id,
    redirect_uri: request.redirectUri,
    response_type: 'code',
    scope: request.scope,
    state: request.state,
    ...(request.codeChallenge === null
      ? {}
      : { code_challenge: request.codeChallenge, code_challenge_method: 'S256' }),
  };
  const fields = Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
  const scopes = request.scope
    .split(' ')
    .map(
      (scope) => `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(scopeDescriptions[scope] ?? '')}</li>`,
    )
    .join('');
  return page(
    'Authorize access',
    `<h1>${escapeHtml(request.client.name)} asks for access</h1><ul>${scopes}</ul>` +
      `<form method="post" action="${escapeHtml(action)}">${fields}` +
      `<label>Secret API key of your account <input type="password" name="api_key" required></label>` +
      `<button name="decision" value="approve">Approve</button><button name="decision" value="deny">Deny</button></form>`,
  );
}

// Faults of credentials (issue 13, family 5): redirect_uri compared loosely, scopes of a token lost or misreported.
import { errorCodes } from '../../generated/types/errors.js';
import { isBearerScheme } from '../checks/support/www-authenticate.js';
import { type Fault, jsonOf, type ProxiedRequest, withJson } from './fault-proxy.js';
import { type BrokenVariant, bearerOf, errorOf, isObject, pathOnly } from './variant.js';

const isOAuth = (request: ProxiedRequest) => /\/oauth\/(authorize|token)$/.test(pathOnly(request));

/** `redirect_uri` in the query and in a form body, as `normalise` makes it. */
function normalisedRedirect(normalise: (uri: string) => string): Fault {
  return (request, forward) => {
    if (!isOAuth(request)) return forward(request);
    const [path = '', queryText = ''] = request.path.split('?');
    const query = new URLSearchParams(queryText);
    const form = new URLSearchParams(request.body.toString('utf8'));
    const isForm = /x-www-form-urlencoded/.test(request.headers['content-type'] ?? '');
    for (const fields of isForm ? [query, form] : [query]) {
      const uri = fields.get('redirect_uri');
      if (uri !== null) fields.set('redirect_uri', normalise(uri));
    }
    const text = query.toString();
    return forward({
      ...request,
      path: text === '' ? path : `${path}?${text}`,
      body: isForm ? Buffer.from(form.toString(), 'utf8') : request.body,
    });
  };
}

/** The scopes a token carries, from its payload (the reference's access tokens are JWTs with a `scope` claim). */
function scopesOfToken(token: string): string[] {
  const [, payload = ''] = token.split('.');
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { scope?: unknown };
    return typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  } catch {
    return [];
  }
}

const scopeCode = 'insufficient_scope';

/** The token endpoint's form with each repeated parameter kept once, the last (what many form parsers do). */
const lastOfRepeated: Fault = (request, forward) => {
  if (!/\/oauth\/token$/.test(pathOnly(request))) return forward(request);
  const kept = new URLSearchParams([...new Map(new URLSearchParams(request.body.toString('utf8')))]);
  return forward({ ...request, body: Buffer.from(kept.toString(), 'utf8') });
};

/**
 * A server that reads the scheme as `Bearer` and one space exactly: `bearer <key>` or `Bearer  <key>` reaches it as a
 * token that matches nothing.
 */
const caseSensitiveBearer: Fault = (request, forward) => {
  const authorization = request.headers.authorization ?? '';
  if (!/^bearer +\S+$/i.test(authorization) || /^Bearer \S+$/.test(authorization)) return forward(request);
  return forward({
    ...request,
    headers: { ...request.headers, authorization: 'Bearer conformance-scheme-misread' },
  });
};

export const credentialVariants: BrokenVariant[] = [
  {
    name: 'the Bearer scheme is read case-sensitively, with one space',
    fault: () => caseSensitiveBearer,
    files: ['checks/50-'],
    breaks: ['AUTH-BEARER-KEY', 'EP-BEARER'],
    breaksDocumented: ['AUTH-BEARER-KEY', 'EP-BEARER'],
  },
  {
    name: 'a repeated token request parameter is taken once',
    fault: () => lastOfRepeated,
    files: ['checks/63-'],
    breaks: ['INF-SCHEMAS-OAUTH-ERROR'],
  },
  {
    name: 'a redirect_uri with a trailing slash matches the registered one',
    fault: () => normalisedRedirect((uri) => (uri.endsWith('/') ? uri.slice(0, -1) : uri)),
    files: ['checks/52-', 'checks/60-'],
    breaks: ['AUTH-OAUTH-AUTHORIZE', 'AUTH-OAUTH-EXCHANGE'],
    breaksDocumented: ['AUTH-OAUTH-AUTHORIZE', 'AUTH-OAUTH-EXCHANGE'],
  },
  {
    name: 'a redirect_uri with a query added matches the registered one',
    fault: () => normalisedRedirect((uri) => uri.split('?')[0] ?? uri),
    files: ['checks/52-', 'checks/60-'],
    breaks: ['AUTH-OAUTH-AUTHORIZE', 'AUTH-OAUTH-EXCHANGE'],
  },
  {
    name: 'redirect_uri is compared without regard to case',
    fault: () => normalisedRedirect((uri) => uri.toLowerCase()),
    files: ['checks/52-', 'checks/60-'],
    breaks: ['AUTH-OAUTH-AUTHORIZE', 'AUTH-OAUTH-EXCHANGE'],
  },
  {
    name: 'a token asked for two scopes is granted the first only',
    fault: () => (request, forward) => {
      if (!/\/oauth\/authorize$/.test(pathOnly(request))) return forward(request);
      const [path = '', queryText = ''] = request.path.split('?');
      const query = new URLSearchParams(queryText);
      const [first] = (query.get('scope') ?? '').split(' ');
      if (first !== undefined && first !== '') query.set('scope', first);
      return forward({ ...request, path: `${path}?${query.toString()}` });
    },
    files: ['checks/52-', 'checks/62-'],
    breaks: ['AUTH-SCOPES', 'AUTH-TOKEN-SCOPE', 'ERR-INSUFFICIENT-SCOPE'],
    breaksDocumented: ['AUTH-SCOPES', 'AUTH-TOKEN-SCOPE', 'ERR-INSUFFICIENT-SCOPE'],
  },
  {
    name: 'only the first scope of a token is honoured',
    fault: () => async (request, forward) => {
      const response = await forward(request);
      const bearer = bearerOf(request) ?? '';
      const scopes = scopesOfToken(bearer);
      const body = jsonOf(response);
      if (scopes.length < 2 || response.status !== 200 || !isObject(body)) return response;
      // The operation's answer says which scope it needed only when it refuses: ask again with the first scope alone.
      const needs = /\/streams/.test(pathOnly(request))
        ? 'streams:'
        : /\/reports/.test(pathOnly(request))
          ? 'reports:'
          : '';
      if (needs === '' || (scopes[0] ?? '').startsWith(needs)) return response;
      return withJson(
        { ...response, status: errorCodes[scopeCode].status },
        {
          error: {
            type: errorCodes[scopeCode].type,
            code: scopeCode,
            message: 'Insufficient scope.',
            requestId: 'req_conformanceFault',
          },
        },
      );
    },
    files: ['checks/52-', 'checks/62-'],
    breaks: ['AUTH-SCOPES', 'AUTH-TOKEN-SCOPE', 'ERR-INSUFFICIENT-SCOPE'],
  },
  {
    name: 'insufficient_scope is answered as 401 invalid_token',
    fault: () => async (request, forward) => {
      const response = await forward(request);
      const body = jsonOf(response);
      const error = isObject(body) ? errorOf(body) : undefined;
      if (response.status !== 403 || error?.code !== scopeCode) return response;
      const invalid = errorCodes.invalid_token;
      return withJson(
        { ...response, status: invalid.status },
        { error: { ...error, type: invalid.type, code: 'invalid_token' } },
      );
    },
    files: ['checks/52-'],
    breaks: ['AUTH-SCOPES', 'AUTH-TOKEN-SCOPE', 'ERR-INSUFFICIENT-SCOPE'],
  },
  {
    // RFC 6750 section 3.1: a request with no bearer credential gets no error code in the challenge.
    name: 'another scheme is challenged with error="invalid_token"',
    fault: () => async (request, forward) => {
      const response = await forward(request);
      const authorization = request.headers.authorization;
      if (response.status !== 401 || authorization === undefined || isBearerScheme(authorization))
        return response;
      const challenged = `${response.headers['www-authenticate'] ?? 'Bearer'}, error="invalid_token"`;
      return { ...response, headers: { ...response.headers, 'www-authenticate': challenged } };
    },
    files: ['checks/50-'],
    breaks: ['INF-OPENAPI-COMPONENTS-HEADERS-WWWAUTHENTICATE'],
  },
];

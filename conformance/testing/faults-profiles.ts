// Faults of documented promises that the checks once judged under inferred ids only: each runs in both profiles, so a
// deployment checked with `--profile documented` is caught too.
import { jsonOf, type ProxiedRequest } from './fault-proxy.js';
import { type BrokenVariant, bearerOf, isObject, pathOnly, withBearer } from './variant.js';

/** A path naming one object (`/streams/str_…`, `/reports/rep_…/records/rec_…`): its last segment is an id. */
const namesObject = (request: ProxiedRequest) => /\/[a-z]+_[A-Za-z0-9]+$/.test(pathOnly(request));

const formOf = (request: ProxiedRequest) => new URLSearchParams(request.body.toString('utf8'));

/** The request with `names` removed from its query and its form body. */
function withoutFields(request: ProxiedRequest, names: readonly string[]): ProxiedRequest {
  const [path = '', query = ''] = request.path.split('?');
  const parameters = new URLSearchParams(query);
  for (const name of names) parameters.delete(name);
  const form = formOf(request);
  const isForm = /x-www-form-urlencoded/.test(request.headers['content-type'] ?? '');
  for (const name of names) form.delete(name);
  const rest = parameters.toString();
  return {
    ...request,
    path: rest === '' ? path : `${path}?${rest}`,
    body: isForm ? Buffer.from(form.toString(), 'utf8') : request.body,
  };
}

const pkceFields = ['code_challenge', 'code_challenge_method'] as const;

export const profileVariants: BrokenVariant[] = [
  {
    name: 'another account’s objects are readable by id',
    // The account filter is missing from the lookups by id: the free key reads what the paid account owns.
    fault: (credentials) => (request, forward) =>
      forward(
        request.method === 'GET' && bearerOf(request) === credentials.freeSecret && namesObject(request)
          ? withBearer(request, credentials.paidSecret)
          : request,
      ),
    files: ['checks/24-'],
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
    breaksDocumented: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
  {
    name: 'PKCE is ignored: a code is exchanged without its verifier',
    // The authorization server knows no PKCE: the challenge is dropped at authorization, the verifier at exchange.
    fault: () => (request, forward) => {
      const path = pathOnly(request);
      if (/\/oauth\/authorize$/.test(path)) return forward(withoutFields(request, pkceFields));
      return forward(/\/oauth\/token$/.test(path) ? withoutFields(request, ['code_verifier']) : request);
    },
    files: ['checks/60-'],
    breaks: [
      'AUTH-OAUTH-EXCHANGE',
      'INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-GET-PARAMETERS-5',
      'INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-GET-PARAMETERS-6',
      'INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CODE_VERIFIER',
    ],
    breaksDocumented: [
      'AUTH-OAUTH-EXCHANGE',
      'INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-GET-PARAMETERS-5',
      'INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CODE_VERIFIER',
    ],
  },
  {
    name: 'a used refresh token still works',
    // The token endpoint forgets rotation: an old refresh token stands for the newest one of its grant.
    fault: () => {
      const newer = new Map<string, string>();
      return async (request, forward) => {
        if (!/\/oauth\/token$/.test(pathOnly(request))) return forward(request);
        const form = formOf(request);
        const sent = form.get('grant_type') === 'refresh_token' ? form.get('refresh_token') : null;
        if (sent === null) return forward(request);
        let newest = sent;
        for (let next = newer.get(newest); next !== undefined; next = newer.get(newest)) newest = next;
        form.set('refresh_token', newest);
        const response = await forward({ ...request, body: Buffer.from(form.toString(), 'utf8') });
        const answer = jsonOf(response);
        if (isObject(answer) && typeof answer.refresh_token === 'string')
          newer.set(newest, answer.refresh_token);
        return response;
      };
    },
    files: ['checks/61-'],
    breaks: [
      'AUTH-OAUTH-REFRESH',
      'INF-OPENAPI-COMPONENTS-SECURITYSCHEMES-OAUTH2-X-TOKEN-LIFETIMES-REFRESHTOKEN',
      'INF-SCHEMAS-OAUTH-ERROR',
    ],
    breaksDocumented: [
      'AUTH-OAUTH-REFRESH',
      'INF-OPENAPI-COMPONENTS-SECURITYSCHEMES-OAUTH2-X-TOKEN-LIFETIMES-REFRESHTOKEN',
      'INF-SCHEMAS-OAUTH-ERROR',
    ],
  },
];

import { jsonOf, type ProxiedResponse, withJson } from './fault-proxy.js';
import { credentialVariants } from './faults-credentials.js';
import { errorVariants } from './faults-errors.js';
import { isolationVariants } from './faults-isolation.js';
import { pageVariants } from './faults-pages.js';
import { profileVariants } from './faults-profiles.js';
import { valueVariants } from './faults-values.js';
import {
  type BrokenVariant,
  bearerOf,
  errorOf,
  isList,
  isObject,
  lastPage,
  pathOnly,
  rewriteJson,
  withBearer,
  writeMethods,
} from './variant.js';

export type { BrokenVariant } from './variant.js';

/**
 * The broken variants; each keeps the rest of the service intact. `breaks` follows the checks: when a check file
 * changes which requirements it names, `tsx conformance/testing/calibrate-variants.ts` prints the new sets to review.
 */
const firstVariants: BrokenVariant[] = [
  {
    name: 'a stream title of 201 characters is accepted',
    // Truncated before the service sees it, echoed back whole: the service looks as if it stored 201 characters.
    fault: () => async (request, forward) => {
      const body = jsonOf(request);
      const title = isObject(body) ? body.title : undefined;
      const creates = request.method === 'POST' && /\/streams$/.test(pathOnly(request));
      if (!creates || !isObject(body) || typeof title !== 'string' || title.length <= 200)
        return forward(request);
      const response = await forward(withJson(request, { ...body, title: title.slice(0, 200) }));
      const answer = jsonOf(response);
      return isObject(answer) && response.status < 300 ? withJson(response, { ...answer, title }) : response;
    },
    files: ['checks/26-'],
    breaks: [
      'EP-CREATE-STREAM',
      'EP-CREATE-STREAM-TITLE-REQUIRED',
      'ERR-400',
      'ERR-ENVELOPE',
      'INF-SCHEMAS-ERROR-CODE-ONEOF-PARAMETER_INVALID',
      'RES-STREAM-TITLE-MAX',
    ],
  },
  {
    name: '`param` is missing from the 400 of a stream without title',
    fault: () =>
      rewriteJson(
        (request, response, body) =>
          request.method === 'POST' &&
          /\/streams$/.test(pathOnly(request)) &&
          response.status === 400 &&
          errorOf(body)?.code === 'param_required',
        (body) => {
          delete errorOf(body)?.param;
          return body;
        },
      ),
    files: ['checks/10-', 'checks/26-'],
    breaks: [
      'EP-CREATE-STREAM',
      'EP-CREATE-STREAM-TITLE-MISSING',
      'EP-CREATE-STREAM-TITLE-REQUIRED',
      'ERR-400',
      'ERR-ENVELOPE',
      'ERR-PARAM-REQUIRED',
    ],
  },
  {
    name: 'a revoked key is accepted',
    fault: (credentials) => (request, forward) =>
      forward(
        bearerOf(request) === credentials.revoked ? withBearer(request, credentials.paidSecret) : request,
      ),
    files: ['checks/50-'],
    breaks: [
      'AUTH-KEY-REVOKED',
      'ERR-401',
      'ERR-KEY-REVOKED',
      'INF-OPENAPI-COMPONENTS-HEADERS-WWWAUTHENTICATE',
      'INF-SCHEMAS-ERROR-CODE-ONEOF-KEY_REVOKED',
    ],
  },
  {
    name: 'a publishable key may write',
    fault: (credentials) => (request, forward) =>
      forward(
        bearerOf(request) === credentials.publishable && writeMethods.has(request.method)
          ? withBearer(request, credentials.paidSecret)
          : request,
      ),
    files: ['checks/51-'],
    breaks: ['AUTH-PUBLISHABLE-KEY', 'ERR-403', 'INF-SCHEMAS-ERROR-CODE-ONEOF-PUBLISHABLE_KEY_FORBIDDEN'],
  },
  {
    name: '`hasMore` is true on the last page',
    fault: () =>
      rewriteJson(
        (_request, _response, body) => lastPage(body),
        (body) => ({ ...body, hasMore: true }),
      ),
    files: ['checks/20-'],
    // The walks of the list check several promises at once; each of them fails with the walk. A page before a cursor
    // that reaches the list's start is a last page too (check 20's one-item pages of every list).
    breaks: [
      'EP-BEFORE-CURSOR',
      'EP-CURSOR-PAGINATION',
      'EP-LIST-AFTER',
      'EP-LIST-REPORTS',
      'EP-LIST-REPORTS-200',
      'INF-OPENAPI-COMPONENTS-PARAMETERS-BEFORE',
      'INF-SCHEMAS-LIST-PROPERTIES-NEXTCURSOR',
      'RES-LIST-ENVELOPE',
      'RES-LIST-HAS-MORE',
      'RES-LIST-NEXT-CURSOR',
    ],
  },
  {
    name: '`nextCursor` is not null on the last page',
    fault: () =>
      rewriteJson(
        (_request, _response, body) => lastPage(body),
        (body) => {
          const items = body.data as unknown[];
          const last = items.at(-1);
          return { ...body, nextCursor: isObject(last) && typeof last.id === 'string' ? last.id : 'cursor' };
        },
      ),
    files: ['checks/20-'],
    breaks: [
      'EP-BEFORE-CURSOR',
      'EP-CURSOR-PAGINATION',
      'EP-LIST-AFTER',
      'EP-LIST-REPORTS',
      'EP-LIST-REPORTS-200',
      'INF-OPENAPI-COMPONENTS-PARAMETERS-BEFORE',
      'INF-SCHEMAS-LIST-PROPERTIES-DATA',
      'INF-SCHEMAS-LIST-PROPERTIES-NEXTCURSOR',
      'RES-LIST-ENVELOPE',
      'RES-LIST-HAS-MORE',
      'RES-LIST-NEXT-CURSOR',
    ],
  },
  {
    name: '`signingSecret` is returned by a list of webhooks',
    fault: () =>
      rewriteJson(
        (request, _response, body) =>
          request.method === 'GET' && /\/webhooks$/.test(pathOnly(request)) && isList(body),
        (body) => ({
          ...body,
          data: (body.data as unknown[]).map((item) =>
            isObject(item) ? { ...item, signingSecret: 'whsec_0123456789abcdef0123456789abcdef' } : item,
          ),
        }),
      ),
    files: ['checks/22-', 'checks/30-'],
    // The webhook limit check counts the account's webhooks through the list, so it cannot trust it either.
    breaks: [
      'EP-CREATE-WEBHOOK-SECRET',
      'EP-WEBHOOKS-NAMED',
      'INF-OPENAPI-PATHS-WEBHOOKS-GET',
      'INF-OPENAPI-X-LIMITS',
      'INF-SCHEMAS-ERROR-CODE-ONEOF-WEBHOOK_LIMIT_REACHED',
      'RES-WEBHOOK-SIGNING-SECRET',
    ],
  },
  {
    name: '`streamKey` is returned by GET of a stream',
    fault: () =>
      rewriteJson(
        (request, response, body) =>
          request.method === 'GET' &&
          /\/streams\/[^/]+$/.test(pathOnly(request)) &&
          response.status === 200 &&
          body.object === 'stream',
        (body) => ({ ...body, streamKey: 'sk_live_0123456789abcdef0123456789abcdef' }),
      ),
    files: ['checks/22-', 'checks/30-'],
    breaks: [
      'EP-STREAMS-NAMED',
      'INF-OPENAPI-PATHS-STREAMS-STREAMID',
      'INF-SCHEMAS-CREATED-STREAM-PROPERTIES-STREAMKEY',
      'INF-SCHEMAS-STREAM',
      'RES-STREAM-KEY',
    ],
  },
  {
    name: 'a 404 has the wrong error type',
    fault: () =>
      rewriteJson(
        (_request, response, body) => response.status === 404 && errorOf(body) !== undefined,
        (body) => ({ ...body, error: { ...errorOf(body), type: 'api_error' } }),
      ),
    files: ['checks/24-'],
    breaks: [
      'ERR-404',
      'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING',
      'INF-SCHEMAS-ERROR-CODE-ONEOF-ROUTE_NOT_FOUND',
    ],
  },
  {
    name: 'the Request-Id header is missing',
    fault: () => async (request, forward) => {
      const response = await forward(request);
      const { 'request-id': _dropped, ...headers } = response.headers;
      return { ...response, headers };
    },
    files: ['checks/24-'],
    breaks: ['INF-OPENAPI-COMPONENTS-HEADERS-REQUESTID', 'INF-SCHEMAS-IDS-DEFS-REQUESTID'],
  },
  {
    name: 'an authorization code can be exchanged twice',
    // The first answer for a code is kept and replayed when the service refuses the code the second time.
    fault: () => {
      const answers = new Map<string, ProxiedResponse>();
      return async (request, forward) => {
        const response = await forward(request);
        if (!/\/oauth\/token$/.test(pathOnly(request))) return response;
        const form = new URLSearchParams(request.body.toString('utf8'));
        const code = form.get('grant_type') === 'authorization_code' ? form.get('code') : null;
        if (code === null) return response;
        const first = answers.get(code);
        if (first === undefined && response.status === 200) answers.set(code, response);
        return first !== undefined && response.status === 400 ? first : response;
      };
    },
    files: ['checks/61-'],
    breaks: [
      'INF-OPENAPI-COMPONENTS-SECURITYSCHEMES-OAUTH2-X-TOKEN-LIFETIMES-AUTHORIZATIONCODE',
      'INF-SCHEMAS-OAUTH-ERROR',
    ],
  },
  {
    name: 'an access token is said to live two hours',
    fault: () =>
      rewriteJson(
        (request, response, body) =>
          /\/oauth\/token$/.test(pathOnly(request)) &&
          response.status === 200 &&
          typeof body.expires_in === 'number',
        (body) => ({ ...body, expires_in: 7200 }),
      ),
    files: ['checks/61-'],
    breaks: ['AUTH-TOKEN-EXPIRES-IN', 'LIM-ACCESS-TOKEN-LIFETIME'],
  },
  {
    name: 'the 61st request of a free key in a minute is admitted',
    // A refusal of the free key is replaced by the paid key's answer to the same request.
    fault: (credentials) => async (request, forward) => {
      const response = await forward(request);
      if (response.status !== 429 || bearerOf(request) !== credentials.freeSecret) return response;
      return forward(withBearer(request, credentials.paidSecret));
    },
    files: ['checks/90-'],
    // The paid answer also carries the paid plan's RateLimit fields.
    breaks: [
      'ERR-429',
      'INF-OPENAPI-COMPONENTS-HEADERS-RATELIMIT',
      'INF-OPENAPI-COMPONENTS-HEADERS-RATELIMITPOLICY',
      'INF-SCHEMAS-ERROR-CODE-ONEOF-RATE_LIMITED',
      'LIM-RATE-EXCEEDED',
      'LIM-RATE-FREE',
    ],
    ownReference: true,
  },
];

export const brokenVariants: BrokenVariant[] = [
  ...firstVariants,
  ...profileVariants,
  ...valueVariants,
  ...pageVariants,
  ...isolationVariants,
  ...credentialVariants,
  ...errorVariants,
];

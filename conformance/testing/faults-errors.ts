// Faults of error answers and events (issue 13, family 6): the right status in the wrong form, headers missing on
// some refusals, characters lost or fatal, events of one kind lost or mislabelled.

import { errorCodes } from '../../generated/types/errors.js';
import { type Fault, jsonOf, type ProxiedRequest, type ProxiedResponse, withJson } from './fault-proxy.js';
import { type BrokenVariant, isList, isObject, type Json, pathOnly, rewriteJson } from './variant.js';

/** The answer with the headers `drop` names removed, for the answers `when` selects. */
function withoutHeaders(when: (response: ProxiedResponse) => boolean, drop: readonly string[]): Fault {
  return async (request, forward) => {
    const response = await forward(request);
    if (!when(response)) return response;
    const headers = Object.fromEntries(
      Object.entries(response.headers).filter(([name]) => !drop.includes(name)),
    );
    return { ...response, headers };
  };
}

const rateLimitHeaders = ['ratelimit', 'ratelimit-policy'];
const createsStream = (request: ProxiedRequest) =>
  request.method === 'POST' && /\/streams$/.test(pathOnly(request));
const deliveriesOf = (request: ProxiedRequest) => /\/deliveries$/.test(pathOnly(request));

/** Rewrites the delivery items of a webhook's delivery list. */
function deliveries(change: (items: Json[]) => Json[]): Fault {
  return rewriteJson(
    (request, _response, body) => deliveriesOf(request) && isList(body),
    (body) => ({ ...body, data: change(body.data as Json[]) }),
  );
}

export const errorVariants: BrokenVariant[] = [
  {
    name: 'error answers are sent as text/plain',
    fault: () => async (request, forward) => {
      const response = await forward(request);
      if (response.status < 400) return response;
      return { ...response, headers: { ...response.headers, 'content-type': 'text/plain; charset=utf-8' } };
    },
    files: ['checks/38-'],
    breaks: ['ERR-ENVELOPE', 'SVC-JSON'],
    breaksDocumented: ['ERR-ENVELOPE', 'SVC-JSON'],
  },
  {
    name: 'a 404 carries no RateLimit fields',
    fault: () => withoutHeaders((response) => response.status === 404, rateLimitHeaders),
    files: ['checks/38-'],
    breaks: ['INF-OPENAPI-COMPONENTS-HEADERS-RATELIMIT', 'INF-OPENAPI-COMPONENTS-HEADERS-RATELIMITPOLICY'],
  },
  {
    name: 'a 403 carries no RateLimit fields',
    fault: () => withoutHeaders((response) => response.status === 403, rateLimitHeaders),
    files: ['checks/38-'],
    breaks: ['INF-OPENAPI-COMPONENTS-HEADERS-RATELIMIT', 'INF-OPENAPI-COMPONENTS-HEADERS-RATELIMITPOLICY'],
  },
  {
    name: 'control characters are stripped from a stream title',
    fault: () => async (request, forward) => {
      const body = jsonOf(request);
      if (!createsStream(request) || !isObject(body) || typeof body.title !== 'string')
        return forward(request);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the fault is about exactly these characters
      const stripped = body.title.replace(/[\u0001-\u0008\u000b-\u001f\u007f]/g, '');
      const response = await forward(withJson(request, { ...body, title: stripped }));
      const answer = jsonOf(response);
      return isObject(answer) && response.status < 300
        ? withJson(response, { ...answer, title: body.title })
        : response;
    },
    files: ['checks/38-'],
    breaks: ['EP-CREATE-STREAM', 'ERR-ENVELOPE'],
  },
  {
    name: 'a NUL character in a string is a 500',
    fault: () => async (request, forward) => {
      if (!request.body.toString('utf8').includes('\\u0000')) return forward(request);
      const response = await forward(request);
      const internal = errorCodes.internal_error;
      return withJson(
        { ...response, status: internal.status },
        {
          error: {
            type: internal.type,
            code: 'internal_error',
            message: 'Internal error.',
            requestId: 'req_conformanceFault',
          },
        },
      );
    },
    files: ['checks/38-'],
    breaks: ['EP-CREATE-STREAM', 'ERR-ENVELOPE'],
  },
  {
    name: 'deleting a published record emits no report.deleted',
    fault: () => deliveries((items) => items.filter((item) => item.eventType !== 'report.deleted')),
    files: ['checks/38-'],
    breaks: [
      'EVT-SUBSCRIBE-EVENTS',
      'EVT-TYPE-REPORT-DELETED',
      'STATE-RECORD-DELETED-EVENT',
      'STATE-RECORD-PUBLISHED-EVENT',
    ],
  },
  {
    name: 'deleting a published record emits report.generated instead of report.deleted',
    fault: () =>
      deliveries((items) =>
        items.map((item) =>
          item.eventType === 'report.deleted' ? { ...item, eventType: 'report.generated' } : item,
        ),
      ),
    files: ['checks/38-'],
    breaks: [
      'EVT-SUBSCRIBE-EVENTS',
      'EVT-TYPE-REPORT-DELETED',
      'STATE-RECORD-DELETED-EVENT',
      'STATE-RECORD-PUBLISHED-EVENT',
    ],
  },
];

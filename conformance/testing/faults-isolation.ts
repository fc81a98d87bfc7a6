// Faults of isolation (issue 13, family 4): one operation forgets the account check, and only for it do another
// account's objects answer. The proxy learns which ids the free account made (from its creations' answers) and
// sends that operation, when it names one of them, with the free account's key.
import { type Fault, jsonOf, type ProxiedRequest, withJson } from './fault-proxy.js';
import type { Credentials } from './reference-under-test.js';
import {
  type BrokenVariant,
  bearerOf,
  isList,
  isObject,
  type Json,
  pathOnly,
  withBearer,
} from './variant.js';

const idPattern = /\b[a-z]{2,3}_[A-Za-z0-9]{8,}\b/g;

/** Ids in an answer: the object's own and those of the items of a list. */
function idsIn(body: unknown): string[] {
  if (!isObject(body)) return [];
  if (isList(body))
    return (body.data as Json[]).flatMap((item) => (typeof item.id === 'string' ? [item.id] : []));
  return typeof body.id === 'string' ? [body.id] : [];
}

/**
 * Requests that `forgets` selects, naming an id of the free account and sent with another credential, reach the
 * service with the free account's key: the operation looks the object up without the caller's account.
 */
function forgetsAccount(
  forgets: (request: ProxiedRequest) => boolean,
  credential: (bearer: string) => boolean = () => true,
): (credentials: Credentials) => Fault {
  return (credentials) => {
    const freeIds = new Set<string>();
    return async (request, forward) => {
      const bearer = bearerOf(request) ?? '';
      const named = pathOnly(request).match(idPattern) ?? [];
      const foreign = bearer !== credentials.freeSecret && named.some((id) => freeIds.has(id));
      const response = await forward(
        foreign && forgets(request) && credential(bearer)
          ? withBearer(request, credentials.freeSecret)
          : request,
      );
      if (bearer === credentials.freeSecret) for (const id of idsIn(jsonOf(response))) freeIds.add(id);
      return response;
    };
  };
}

const is = (method: string, path: RegExp) => (request: ProxiedRequest) =>
  request.method === method && path.test(pathOnly(request));

const isAccessToken = (bearer: string) => bearer.split('.').length === 3;

// 10- beside the matrix: its checks pass, so a run shows the fault did not break everything.
const matrix = ['checks/10-', 'checks/36-'];

export const isolationVariants: BrokenVariant[] = [
  {
    name: 'updating a stream does not check its account',
    fault: forgetsAccount(is('PATCH', /\/streams\/[^/]+$/)),
    files: matrix,
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
    breaksDocumented: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
  {
    name: 'deleting a report does not check its account',
    fault: forgetsAccount(is('DELETE', /\/reports\/[^/]+$/)),
    files: matrix,
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
  {
    name: 'the records of another account’s report can be listed',
    fault: forgetsAccount(is('GET', /\/reports\/[^/]+\/records$/)),
    files: matrix,
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
  {
    name: 'a test event can be sent to another account’s webhook',
    fault: forgetsAccount(is('POST', /\/webhooks\/[^/]+\/test$/)),
    files: matrix,
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
  {
    name: 'another account’s delivery can be retried',
    fault: forgetsAccount(is('POST', /\/deliveries\/[^/]+\/retry$/)),
    files: matrix,
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
  {
    name: 'a subscriber token can be made for another account’s stream',
    fault: forgetsAccount(is('POST', /\/streams\/[^/]+\/subscriber_tokens$/)),
    files: matrix,
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
  {
    name: 'an OAuth access token reads another account’s reports',
    // API keys are checked; the token path resolves the account from the object instead of from the token.
    fault: forgetsAccount(is('GET', /\/reports\/[^/]+$/), isAccessToken),
    files: matrix,
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
    breaksDocumented: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
  {
    name: 'a stream may record into another account’s report',
    // The reference is not resolved for the caller: the stream is created, naming the report it was given.
    fault: (credentials) => {
      const freeIds = new Set<string>();
      return async (request, forward) => {
        const body = jsonOf(request);
        const bearer = bearerOf(request);
        const creates = is('POST', /\/streams$/)(request) && isObject(body);
        const target = creates ? body.recordingReportId : undefined;
        if (typeof target !== 'string' || !freeIds.has(target) || bearer === credentials.freeSecret) {
          const response = await forward(request);
          if (bearer === credentials.freeSecret) for (const id of idsIn(jsonOf(response))) freeIds.add(id);
          return response;
        }
        const { recordingReportId: _dropped, ...rest } = body as Json;
        const response = await forward(withJson(request, rest));
        const answer = jsonOf(response);
        return isObject(answer) ? withJson(response, { ...answer, recordingReportId: target }) : response;
      };
    },
    files: matrix,
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
  {
    name: 'a record is found under any report of its account',
    // The record is looked up by its id alone: under another report of the same account it answers all the same.
    fault: () => {
      const reportOf = new Map<string, string>();
      return async (request, forward) => {
        const match = /\/reports\/([^/]+)\/records\/([^/]+)$/.exec(pathOnly(request));
        const owner = match === null ? undefined : reportOf.get(match[2] ?? '');
        const moved =
          match !== null && owner !== undefined && owner !== match[1] && request.method === 'GET'
            ? { ...request, path: request.path.replace(`/reports/${match[1]}/`, `/reports/${owner}/`) }
            : request;
        const response = await forward(moved);
        const body = jsonOf(response);
        if (
          isObject(body) &&
          body.object === 'record' &&
          typeof body.id === 'string' &&
          typeof body.reportId === 'string'
        )
          reportOf.set(body.id, body.reportId);
        return response;
      };
    },
    files: matrix,
    breaks: ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
  },
];

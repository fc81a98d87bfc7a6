// Faults of pagination at its edges (issue 13, family 3): off-by-one pages, cursors taken from anywhere, a status
// filter applied to the page instead of the list.
import { apiPolicies } from '../../generated/types/facts.js';
import { limitBounds } from '../checks/support/rest-spec.js';
import { type Fault, jsonOf, type ProxiedRequest, withJson } from './fault-proxy.js';
import {
  type BrokenVariant,
  errorOf,
  isList,
  isObject,
  type Json,
  pathOnly,
  rewriteJson,
} from './variant.js';

const { limitParameter, cursorParameter, reverseCursorParameter } = apiPolicies.pagination;

const queryOf = (request: ProxiedRequest) => new URLSearchParams(request.path.split('?')[1] ?? '');

function withQuery(request: ProxiedRequest, query: URLSearchParams): ProxiedRequest {
  const text = query.toString();
  return { ...request, path: text === '' ? pathOnly(request) : `${pathOnly(request)}?${text}` };
}

const lastId = (items: Json[]) => {
  const last = items.at(-1);
  return typeof last?.id === 'string' ? last.id : null;
};

/** The status filter applied to each page after paging, not to the list: pages come out short, or empty. */
function filterAfterPaging(): Fault {
  return async (request, forward) => {
    const query = queryOf(request);
    const status = query.get('status');
    if (request.method !== 'GET' || !/\/reports$/.test(pathOnly(request)) || status === null)
      return forward(request);
    query.delete('status');
    const response = await forward(withQuery(request, query));
    const body = jsonOf(response);
    if (!isObject(body) || !isList(body)) return response;
    return withJson(response, {
      ...body,
      data: (body.data as Json[]).filter((item) => item.status === status),
    });
  };
}

/** A page size read as JavaScript's Number() reads it (`2e0`, `0x2`, ` 2`): the query reaches the service rewritten. */
function lenientPageSize(): Fault {
  return async (request, forward) => {
    const query = queryOf(request);
    const limit = query.get(limitParameter);
    if (limit === null || limit.trim() === '' || !Number.isInteger(Number(limit))) return forward(request);
    query.set(limitParameter, String(Number(limit)));
    return forward(withQuery(request, query));
  };
}

export const pageVariants: BrokenVariant[] = [
  {
    name: 'a page exactly as full as the limit says there is more',
    fault: () =>
      rewriteJson(
        (request, _response, body) =>
          isList(body) &&
          body.hasMore === false &&
          (body.data as unknown[]).length === Number(queryOf(request).get(limitParameter)),
        (body) => ({ ...body, hasMore: true, nextCursor: lastId(body.data as Json[]) }),
      ),
    files: ['checks/20-', 'checks/34-'],
    breaks: [
      'EP-LIST-LIMIT',
      'INF-OPENAPI-COMPONENTS-PARAMETERS-BEFORE',
      'INF-SCHEMAS-LIST-PROPERTIES-NEXTCURSOR',
      'RES-LIST-HAS-MORE',
      'RES-LIST-NEXT-CURSOR',
    ],
  },
  {
    name: 'the largest page holds one item fewer than the limit',
    fault: () =>
      rewriteJson(
        (request, _response, body) =>
          isList(body) &&
          queryOf(request).get(limitParameter) === String(limitBounds().maximum) &&
          (body.data as unknown[]).length === limitBounds().maximum,
        (body) => {
          const data = (body.data as Json[]).slice(0, -1);
          return { ...body, data, hasMore: true, nextCursor: lastId(data) };
        },
      ),
    files: ['checks/20-', 'checks/34-'],
    breaks: ['EP-CURSOR-PAGINATION', 'EP-LIST-LIMIT', 'RES-LIST-HAS-MORE'],
  },
  {
    name: 'a cursor naming an item of another list answers an empty page',
    // The cursor is looked up among every item of the account, not the list's: a real id from elsewhere passes.
    fault: () => async (request, forward) => {
      const response = await forward(request);
      const body = jsonOf(response);
      const query = queryOf(request);
      const cursor = query.get(cursorParameter) ?? query.get(reverseCursorParameter) ?? '';
      const refused = response.status === 400 && isObject(body) && errorOf(body)?.code === 'cursor_invalid';
      if (!refused || cursor.includes('Missing') || !/^[a-z]+_[A-Za-z0-9]+$/.test(cursor)) return response;
      return withJson(
        { ...response, status: 200 },
        { object: 'list', data: [], hasMore: false, nextCursor: null },
      );
    },
    files: ['checks/20-', 'checks/34-'],
    breaks: ['EP-BEFORE-CURSOR', 'EP-LIST-AFTER', 'INF-SCHEMAS-ERROR-CODE-ONEOF-CURSOR_INVALID'],
  },
  {
    name: 'the status filter is applied to each page, not to the list',
    fault: filterAfterPaging,
    files: ['checks/20-', 'checks/34-'],
    breaks: ['EP-BEFORE-CURSOR', 'EP-LIST-AFTER', 'EP-LIST-REPORTS-STATUS-FILTER'],
  },
  {
    name: 'a page before a cursor ignores the status filter',
    fault: () => async (request, forward) => {
      const query = queryOf(request);
      if (query.get(reverseCursorParameter) === null || query.get('status') === null) return forward(request);
      query.delete('status');
      return forward(withQuery(request, query));
    },
    files: ['checks/20-', 'checks/34-'],
    breaks: ['EP-BEFORE-CURSOR', 'EP-LIST-AFTER', 'EP-LIST-REPORTS-STATUS-FILTER'],
  },
  {
    name: 'a page size written as JavaScript reads numbers is taken (1e2 a page of 100)',
    fault: lenientPageSize,
    files: ['checks/20-'],
    breaks: ['INF-OPENAPI-X-PARAMETER-VALUES'],
  },
];

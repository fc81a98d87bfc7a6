// Faults of stored values (issue 13, families 1 and 2): the answer to the write looks right, what is stored is not.
// The service is given a changed request and the client is shown its own values back, as a service that echoes its
// input but stores something else would do.
import { type Fault, jsonOf, type ProxiedRequest, withJson } from './fault-proxy.js';
import { type BrokenVariant, isObject, type Json, pathOnly, rewriteJson } from './variant.js';

const createsStream = (request: ProxiedRequest) =>
  request.method === 'POST' && /\/streams$/.test(pathOnly(request));
const updatesStream = (request: ProxiedRequest) =>
  request.method === 'PATCH' && /\/streams\/stm_[A-Za-z0-9]+$/.test(pathOnly(request));

/**
 * Sends the request body as `change` makes it, and answers with the service's answer where the fields the client
 * sent are shown as it sent them.
 */
function storesOtherwise(
  when: (request: ProxiedRequest) => boolean,
  change: (body: Json) => Json,
): () => Fault {
  return () => async (request, forward) => {
    const body = jsonOf(request);
    if (!when(request) || !isObject(body)) return forward(request);
    const response = await forward(withJson(request, change(structuredClone(body))));
    const answer = jsonOf(response);
    if (!isObject(answer) || response.status >= 300) return response;
    return withJson(response, { ...answer, ...body });
  };
}

const withoutField = (name: string) => (body: Json) => {
  delete body[name];
  return body;
};

/** The first `bytes` bytes of a string's UTF-8, cut back to a whole character. */
function cutToBytes(text: string, bytes: number): string {
  let result = '';
  for (const character of text) {
    if (Buffer.byteLength(result + character) > bytes) break;
    result += character;
  }
  return result;
}

export const valueVariants: BrokenVariant[] = [
  {
    name: 'the quality given at creation is not stored',
    fault: storesOtherwise(createsStream, withoutField('quality')),
    files: ['checks/32-'],
    breaks: [
      'EP-CREATE-STREAM-201',
      'EP-STREAMS-NAMED',
      'INF-SCHEMAS-UPDATE-STREAM-REQUEST',
      'RES-STREAM-FORMAT-ENUM',
      'RES-STREAM-QUALITY-ENUM',
    ],
  },
  {
    name: 'the format given at creation is not stored',
    fault: storesOtherwise(createsStream, withoutField('format')),
    files: ['checks/32-'],
    breaks: [
      'EP-CREATE-STREAM-201',
      'EP-STREAMS-NAMED',
      'INF-SCHEMAS-UPDATE-STREAM-REQUEST',
      'RES-STREAM-FORMAT-ENUM',
      'RES-STREAM-QUALITY-ENUM',
    ],
  },
  {
    name: 'metadata is stored with its first 15 keys only',
    fault: storesOtherwise(createsStream, (body) => {
      if (isObject(body.metadata))
        body.metadata = Object.fromEntries(Object.entries(body.metadata).slice(0, 15));
      return body;
    }),
    files: ['checks/32-'],
    breaks: ['EP-CREATE-STREAM-METADATA-LIMITS', 'EP-CREATE-STREAM-TITLE-REQUIRED', 'RES-STREAM-TITLE-MAX'],
  },
  {
    name: 'metadata values are stored cut at 500 characters',
    fault: storesOtherwise(createsStream, (body) => {
      if (isObject(body.metadata))
        body.metadata = Object.fromEntries(
          Object.entries(body.metadata).map(([key, value]) => [key, String(value).slice(0, 500)]),
        );
      return body;
    }),
    files: ['checks/32-'],
    breaks: ['EP-CREATE-STREAM-METADATA-LIMITS', 'EP-CREATE-STREAM-TITLE-REQUIRED', 'RES-STREAM-TITLE-MAX'],
  },
  {
    name: 'a stream title is stored cut at 200 bytes (not characters)',
    fault: storesOtherwise(createsStream, (body) => {
      if (typeof body.title === 'string') body.title = cutToBytes(body.title, 200);
      return body;
    }),
    files: ['checks/32-'],
    breaks: ['EP-CREATE-STREAM-METADATA-LIMITS', 'EP-CREATE-STREAM-TITLE-REQUIRED', 'RES-STREAM-TITLE-MAX'],
  },
  {
    name: 'an update that does not name metadata empties it',
    fault: () => (request, forward) => {
      const body = jsonOf(request);
      if (!updatesStream(request) || !isObject(body) || 'metadata' in body) return forward(request);
      return forward(withJson(request, { ...body, metadata: {} }));
    },
    files: ['checks/32-'],
    breaks: ['EP-STREAMS-NAMED', 'INF-SCHEMAS-UPDATE-STREAM-REQUEST'],
  },
  {
    name: 'an update that does not name recordingReportId stops recording',
    fault: () => (request, forward) => {
      const body = jsonOf(request);
      if (!updatesStream(request) || !isObject(body) || 'recordingReportId' in body) return forward(request);
      return forward(withJson(request, { ...body, recordingReportId: null }));
    },
    files: ['checks/32-'],
    breaks: ['EP-STREAMS-NAMED', 'INF-SCHEMAS-UPDATE-STREAM-REQUEST'],
  },
  {
    name: 'a webhook is read back without its description',
    fault: () =>
      rewriteJson(
        (request, response, body) =>
          request.method === 'GET' &&
          /\/webhooks\/wh_[A-Za-z0-9]+$/.test(pathOnly(request)) &&
          response.status === 200 &&
          body.object === 'webhook',
        (body) => ({ ...body, description: null }),
      ),
    files: ['checks/32-'],
    breaks: ['EVT-SUBSCRIBE-EVENTS', 'RES-WEBHOOK-DESCRIPTION', 'RES-WEBHOOK-EVENTS'],
  },
  {
    name: 'the webhook list shows each webhook with its first event only',
    fault: () =>
      rewriteJson(
        (request, _response, body) => /\/webhooks$/.test(pathOnly(request)) && Array.isArray(body.data),
        (body) => ({
          ...body,
          data: (body.data as Json[]).map((item) =>
            Array.isArray(item.events) ? { ...item, events: item.events.slice(0, 1) } : item,
          ),
        }),
      ),
    files: ['checks/32-'],
    breaks: ['EVT-SUBSCRIBE-EVENTS', 'RES-WEBHOOK-DESCRIPTION', 'RES-WEBHOOK-EVENTS'],
  },
  {
    name: 'an archived report counts no records',
    fault: () =>
      rewriteJson(
        (request, response, body) =>
          request.method === 'GET' &&
          response.status === 200 &&
          body.object === 'report' &&
          body.status === 'archived',
        (body) => ({ ...body, recordCount: 0 }),
      ),
    files: ['checks/32-'],
    breaks: ['INF-SCHEMAS-UPDATE-RECORD-REQUEST', 'INF-SCHEMAS-UPDATE-REPORT-REQUEST'],
  },
];

import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { errorCodes, errorRoles } from '../../generated/types/errors.js';
import { apiPolicies, schemaPatterns } from '../../generated/types/facts.js';
import type { UpdateReportRequestBody } from '../../generated/types/operations.js';
import { expectThat } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { validBody } from './support/rest-body-cases.js';
import { noteAnswer, restCheck } from './support/rest-check.js';
import {
  createRecord,
  createReport,
  createStream,
  createWebhook,
  deleteWebhooksAfterAll,
  loopbackWebhookUrl,
  mapConcurrently,
  once,
  publishRecord,
  sample,
  settle,
  settled,
} from './support/rest-fixtures.js';
import {
  call,
  callUnjudged,
  type ErrorCode,
  errorShape,
  expectError,
  expectListPage,
  expectOperationResponse,
  header,
  missingId,
  type OperationId,
  type PathParameters,
  pathParameterNames,
  restOperations,
} from './support/rest-http.js';
import { judgesInferred } from './support/rest-requirements.js';
import { jsonBodyOf } from './support/rest-spec.js';

deleteWebhooksAfterAll();

const archived: NonNullable<UpdateReportRequestBody['status']> = 'archived';

/** Every exchange this file saw, for the Request-Id checks at its end. */
const seen: Exchange[] = [];
async function observed(exchange: Promise<Exchange>): Promise<Exchange> {
  const answer = await exchange;
  seen.push(answer);
  return answer;
}

/** A report with a draft record and a published record, whose ids fill the path parameters of every operation. */
const objects = once(async () => {
  const { report } = await createReport('Conformance errors report');
  const { record: draft } = await createRecord(report.id, { samples: [sample(Date.now())] });
  const { record: published } = await createRecord(report.id, { samples: [sample(Date.now(), 2)] });
  await publishRecord(report.id, published.id);
  const { webhook } = await createWebhook({ url: loopbackWebhookUrl, events: ['report.deleted'] });
  return { report, draft, published, webhook };
});

/** A body the operation accepts (so that only the missing id can be at fault), or none. */
function bodyFor(operationId: OperationId): { body?: unknown } {
  const operation = jsonBodyOf(operationId);
  return operation === undefined ? {} : { body: validBody(operation.body) };
}

/** Path parameters with real ids except `missing`, which names nothing. */
async function parametersWithMissing(operationId: OperationId, missing: string): Promise<PathParameters> {
  const names = pathParameterNames(operationId);
  // Only a parameter before or beside the missing one needs a real object (the report of a missing record).
  const { report, draft, webhook } =
    names.length > 1 ? await objects() : { report: null, draft: null, webhook: null };
  const real: PathParameters = {
    ...(report === null ? {} : { reportId: report.id }),
    ...(draft === null ? {} : { recordId: draft.id }),
    ...(webhook === null ? {} : { webhookId: webhook.id }),
  };
  return Object.fromEntries(
    names.map((name) => [name, name === missing ? missingId(name) : (real[name] ?? missingId(name))]),
  );
}

const notFoundCases = restOperations.flatMap((operationId) =>
  '404' in routes[operationId].responses
    ? pathParameterNames(operationId).map((parameter) => ({ operationId, parameter }))
    : [],
);

/** The 404 probes are independent: sent together once, then judged one check each (a probe's error in its own). */
const notFoundAnswers = once(() =>
  mapConcurrently(notFoundCases, 8, ({ operationId, parameter }) =>
    settle(async () => {
      const parameters = await parametersWithMissing(operationId, parameter);
      // The feed is public: asked without credentials, like a feed reader.
      const key = routes[operationId].security.length === 0 ? { key: null } : {};
      return observed(callUnjudged(operationId, parameters, { ...bodyFor(operationId), ...key }));
    }),
  ),
);

describe('errors: 404 resource_missing for an id that names nothing', () => {
  const code: ErrorCode = errorRoles.resourceMissing;
  notFoundCases.forEach(({ operationId, parameter }, index) => {
    restCheck(
      ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
      `${operationId} with a ${parameter} that names nothing: 404 ${code}, param ${parameter}`,
      async () => {
        const exchange = settled((await notFoundAnswers())[index]);
        noteAnswer(operationId, exchange);
        expectError(exchange, { code, param: parameter }, operationId);
      },
    );
  });
});

describe('errors: 409 conflicts', () => {
  restCheck(
    ['ERR-409', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RECORD_PUBLISHED'],
    'publishing a published record again: 409 record_published',
    async () => {
      const { report, published } = await objects();
      const exchange = await observed(call('publishRecord', { reportId: report.id, recordId: published.id }));
      expectError(exchange, { code: 'record_published' }, 'publishRecord');
    },
  );

  restCheck(
    ['ERR-409', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RECORD_PUBLISHED'],
    'changing a published record: 409 record_published',
    async () => {
      const { report, published } = await objects();
      const exchange = await observed(
        call(
          'updateRecord',
          { reportId: report.id, recordId: published.id },
          { body: { title: 'Too late' } },
        ),
      );
      expectError(exchange, { code: 'record_published' }, 'updateRecord');
    },
  );

  /** An archived report with a draft record in it, archived by the first check that needs it. */
  const archivedReport = once(async () => {
    const { report } = await createReport('Conformance archived report');
    const { record } = await createRecord(report.id, { samples: [sample(Date.now())] });
    const exchange = await call('updateReport', { reportId: report.id }, { body: { status: archived } });
    expectOperationResponse('updateReport', exchange, 200);
    return { reportId: report.id, recordId: record.id };
  });

  // `param` (judged in the full profile): archiving again is refused for the status it sends; a new title is no
  // parameter at fault, the report's state is.
  const archivedCases: Array<{
    title: string;
    send: () => Promise<Exchange>;
    operationId: OperationId;
    param?: string | null;
  }> = [
    {
      title: 'archiving it again',
      operationId: 'updateReport',
      param: 'status',
      send: async () =>
        call('updateReport', { reportId: (await archivedReport()).reportId }, { body: { status: archived } }),
    },
    {
      title: 'a new title',
      operationId: 'updateReport',
      param: null,
      send: async () =>
        call(
          'updateReport',
          { reportId: (await archivedReport()).reportId },
          { body: { title: 'Too late' } },
        ),
    },
    {
      title: 'uploading a record into it',
      operationId: 'createRecord',
      send: async () =>
        call(
          'createRecord',
          { reportId: (await archivedReport()).reportId },
          { body: { samples: [sample(Date.now())] } },
        ),
    },
    {
      title: 'changing one of its records',
      operationId: 'updateRecord',
      send: async () => call('updateRecord', await archivedReport(), { body: { title: 'Too late' } }),
    },
    {
      title: 'publishing one of its records',
      operationId: 'publishRecord',
      send: async () => call('publishRecord', await archivedReport()),
    },
    {
      title: 'deleting one of its records',
      operationId: 'deleteRecord',
      send: async () => call('deleteRecord', await archivedReport()),
    },
  ];
  for (const { title, operationId, param, send: sendCase } of archivedCases) {
    restCheck(
      [
        'ERR-409',
        'INF-SCHEMAS-ERROR-CODE-ONEOF-REPORT_ARCHIVED',
        'INF-SCHEMAS-REPORT-STATUS-X-TRANSITIONS-2',
      ],
      `an archived report refuses ${title}: 409 report_archived`,
      async () => {
        const exchange = await observed(sendCase());
        expectError(
          exchange,
          { code: 'report_archived', ...(judgesInferred() ? { param } : {}) },
          operationId,
        );
      },
    );
  }

  // 409 stream_live is judged by check 72: a stream goes live only while a device is connected over MQTT.
});

describe('errors: requests the API cannot take', () => {
  restCheck(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-BODY_INVALID_JSON'],
    'a body that is not well-formed JSON: 400 body_invalid_json',
    async () => {
      const exchange = await observed(
        send(routes.createReport.method, routes.createReport.url, {
          rawBody: '{"title": ',
          headers: { 'content-type': 'application/json' },
        }),
      );
      expectError(exchange, { code: errorRoles.malformedBody, param: null }, 'createReport');
    },
  );

  restCheck(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-CONTENT_TYPE_UNSUPPORTED'],
    'a body that is not JSON: 400 content_type_unsupported',
    async () => {
      const exchange = await observed(
        send(routes.createReport.method, routes.createReport.url, {
          rawBody: 'title=Conformance',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
      expectError(exchange, { code: errorRoles.unsupportedContentType }, 'createReport');
    },
  );

  restCheck(
    [
      'INF-SCHEMAS-ERROR-CODE-ONEOF-BODY_TOO_LARGE',
      'INF-OPENAPI-X-LIMITS',
      'INF-OPENAPI-X-LIMITS-MAXREQUESTBODYBYTES',
    ],
    'a body one byte over maxRequestBodyBytes: 413 body_too_large',
    async () => {
      const envelope = '{"title":""}';
      const rawBody = `{"title":"${'a'.repeat(apiPolicies.limits.maxRequestBodyBytes + 1 - envelope.length)}"}`;
      expectThat(
        rawBody.length === apiPolicies.limits.maxRequestBodyBytes + 1,
        'a body of the limit plus one byte',
      );
      const exchange = await observed(
        send(routes.createReport.method, routes.createReport.url, {
          rawBody,
          headers: { 'content-type': 'application/json' },
        }),
      );
      expectError(exchange, { code: errorRoles.bodyTooLarge }, 'createReport');
    },
  );

  restCheck(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-ROUTE_NOT_FOUND'],
    'a path no operation has: 404 route_not_found',
    async () => {
      const exchange = await observed(send('GET', '/conformance-no-such-route'));
      expectError(exchange, { code: errorRoles.routeNotFound });
    },
  );

  restCheck(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-METHOD_NOT_ALLOWED'],
    'a method a path does not have: 405 method_not_allowed',
    async () => {
      const exchange = await observed(send('PUT', routes.listReports.url));
      expectError(exchange, { code: errorRoles.methodNotAllowed });
    },
  );

  restCheck(
    ['INF-OPENAPI-X-UNKNOWN-PARAMETERS', 'INF-SCHEMAS-ERROR-CODE-ONEOF-PARAMETER_UNKNOWN'],
    'a query parameter an operation does not define: 400 parameter_unknown naming it',
    async () => {
      const name = 'conformanceUnknown';
      const { report } = await objects();
      for (const [operationId, parameters] of [
        ['listReports', {}],
        ['getReport', { reportId: report.id }],
        ['getAccount', {}],
      ] as const) {
        const exchange = await observed(call(operationId, parameters, { query: { [name]: '1' } }));
        expectError(exchange, { code: errorRoles.unknownParameter, param: name }, operationId);
      }
    },
  );

  restCheck(
    ['ERR-500', 'INF-SCHEMAS-ERROR-CODE-ONEOF-INTERNAL_ERROR'],
    '500 api_error when the service fails',
    async ({ skip }) => {
      skip('no request is known to make a conformant service fail');
    },
  );
});

const noFreeKey = 'the target names no key of a second (free) account (--free-key)';
const missingCode: ErrorCode = errorRoles.resourceMissing;
const isolatedReportTitle = 'Conformance isolated report';

/** Objects of the paid account, which the free account's key must not reach. */
const paidObjects = once(async () => {
  const { stream } = await createStream({ title: 'Conformance isolated stream' });
  const { report } = await createReport(isolatedReportTitle);
  const { record } = await createRecord(report.id, { samples: [sample(Date.now())] });
  const { webhook } = await createWebhook({ url: loopbackWebhookUrl, events: ['report.generated'] });
  return { streamId: stream.id, reportId: report.id, recordId: record.id, webhookId: webhook.id };
});

/** Reading operations of one object, the parameter that names it last. */
const reads: Array<{ operationId: OperationId; parameter: string }> = [
  { operationId: 'getStream', parameter: 'streamId' },
  { operationId: 'getReport', parameter: 'reportId' },
  // The report is the first id the key cannot see, so it is the one named.
  { operationId: 'getRecord', parameter: 'reportId' },
  { operationId: 'getWebhook', parameter: 'webhookId' },
];

function withMissing(parameters: PathParameters, parameter: string): PathParameters {
  return { ...parameters, [parameter]: missingId(parameter) };
}

// Another account's object does not exist for a key: the document's 404 ("resource does not exist"), judged in both
// profiles; that it answers exactly like a missing id (code, param) is the spec's inferred detail.
describe('isolation: another account’s objects do not exist for a key', () => {
  for (const { operationId, parameter } of reads) {
    restCheck(
      ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
      `${operationId} of the paid account’s object with the free account’s key: 404 ${missingCode}, as for an id that names nothing`,
      async ({ skip }) => {
        const key = currentTarget().keys.freeSecret;
        if (key === null) return skip(noFreeKey);
        const paid = await paidObjects();
        // The record of another account's report: every id of the path belongs to the paid account.
        const foreign = await call(operationId, paid, { key });
        expectError(foreign, { code: missingCode, param: parameter }, operationId);
        const missing = await call(operationId, withMissing(paid, parameter), { key });
        expectThat(
          errorShape(foreign) === errorShape(missing),
          `the same status, type, code and param as for an id that names nothing (${errorShape(missing)})`,
          foreign,
        );
      },
    );
  }

  restCheck(
    ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'],
    'changing or deleting the paid account’s objects with the free account’s key: 404, and the objects stay as they were',
    async ({ skip }) => {
      const key = currentTarget().keys.freeSecret;
      if (key === null) return skip(noFreeKey);
      const paid = await paidObjects();
      const attempts: Array<{ operationId: OperationId; parameter: string; exchange: Exchange }> = [
        {
          operationId: 'updateReport',
          parameter: 'reportId',
          exchange: await call('updateReport', paid, { key, body: { title: 'Taken over' } }),
        },
        {
          operationId: 'deleteStream',
          parameter: 'streamId',
          exchange: await call('deleteStream', paid, { key }),
        },
        {
          operationId: 'deleteWebhook',
          parameter: 'webhookId',
          exchange: await call('deleteWebhook', paid, { key }),
        },
      ];
      for (const { operationId, parameter, exchange } of attempts)
        expectError(exchange, { code: missingCode, param: parameter }, operationId);
      const report = await call('getReport', paid);
      const { title } = expectOperationResponse('getReport', report, 200) as { title: string };
      expectThat(title === isolatedReportTitle, 'the report’s title unchanged', report);
      expectOperationResponse('getStream', await call('getStream', paid), 200);
      expectOperationResponse('getWebhook', await call('getWebhook', paid), 200);
    },
  );

  restCheck(
    ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING', 'INF-OPENAPI-PATHS-STREAMS-GET'],
    'the free account’s lists hold none of the paid account’s objects',
    async ({ skip }) => {
      const key = currentTarget().keys.freeSecret;
      if (key === null) return skip(noFreeKey);
      const paid = await paidObjects();
      for (const [operationId, id] of [
        ['listReports', paid.reportId],
        ['listStreams', paid.streamId],
      ] as const) {
        const exchange = await call(operationId, {}, { key });
        const page = expectListPage<{ id: string }>(operationId, exchange);
        expectThat(!page.data.some((item) => item.id === id), `no ${id} of the paid account`, exchange);
      }
    },
  );
});

describe('errors: the Request-Id header', () => {
  restCheck(
    ['INF-OPENAPI-COMPONENTS-HEADERS-REQUESTID', 'INF-SCHEMAS-IDS-DEFS-REQUESTID'],
    'every answer carries a Request-Id of the RequestId pattern; an error’s equals its requestId',
    async () => {
      const success = await observed(call('getAccount'));
      expectOperationResponse('getAccount', success, 200);
      expectThat(seen.length > 1, 'the answers of the checks above', success);
      const pattern = new RegExp(schemaPatterns.RequestId);
      const ids = new Set<string>();
      for (const exchange of seen) {
        const requestId = header(exchange, 'request-id');
        expectThat(
          requestId !== undefined && pattern.test(requestId),
          `a Request-Id matching ${pattern}`,
          exchange,
        );
        expectThat(!ids.has(requestId), 'a Request-Id of its own for every request', exchange);
        ids.add(requestId);
        if (exchange.response.status >= 400) {
          const body = exchange.response.body as { error?: { requestId?: unknown } } | undefined;
          expectThat(
            body?.error?.requestId === requestId,
            'the envelope’s requestId equal to the Request-Id',
            exchange,
          );
        }
      }
    },
  );

  restCheck(
    ['INF-SCHEMAS-ERROR-RESPONSE-PROPERTIES-ERROR-PROPERTIES-CODE'],
    'every error answer this file saw carries a code of the catalogue, with the status the catalogue gives it',
    async () => {
      const errors = seen.filter((exchange) => exchange.response.status >= 400);
      expectThat(errors.length > 5, 'the error answers of the checks above');
      for (const exchange of errors) {
        const code = (exchange.response.body as { error?: { code?: unknown } } | undefined)?.error?.code;
        const entry = typeof code === 'string' ? errorCodes[code as ErrorCode] : undefined;
        expectThat(entry !== undefined, 'a code of the error-code catalogue', exchange);
        expectThat(
          exchange.response.status === entry.status,
          `status ${entry.status}, the catalogue's for ${String(code)}`,
          exchange,
        );
      }
    },
  );
});

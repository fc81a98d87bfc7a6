import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { schemaDefaults } from '../../generated/types/facts.js';
import { expectThat } from '../harness/check.js';
import type { Exchange } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { restCheck } from './support/rest-check.js';
import {
  createRecord,
  createReport,
  createStream,
  createWebhook,
  deleteWebhooksAfterAll,
  loopbackWebhookUrl,
  once,
  sample,
} from './support/rest-fixtures.js';
import {
  call,
  expectOperationResponse,
  header,
  missingId,
  type OperationId,
  restOperations,
} from './support/rest-http.js';
import { apiVersionSegment } from './support/rest-spec.js';

deleteWebhooksAfterAll();

// Objects the operations act on, made once; an operation that destroys one gets an object of its own.
const stream = once(async () => (await createStream({ title: 'Conformance operations stream' })).stream);
const report = once(async () => (await createReport('Conformance operations report')).report);
const record = once(async () => {
  const { id } = await report();
  return (await createRecord(id, { title: 'Conformance operations record', samples: [sample(Date.now())] }))
    .record;
});
const webhook = once(
  async () => (await createWebhook({ url: loopbackWebhookUrl, events: ['report.generated'] })).webhook,
);

/** The status an operation answers with when it succeeds: the one 2xx of its responses. */
function successStatus(operationId: OperationId): number {
  const statuses = Object.keys(routes[operationId].responses).filter((status) => status.startsWith('2'));
  const [status] = statuses;
  if (statuses.length !== 1 || status === undefined)
    throw new Error(`${operationId} lists ${statuses.length} success statuses`);
  return Number(status);
}

interface OperationCase {
  operationId: OperationId;
  requirements: string[];
  /** Sends a valid request of the operation. */
  send: () => Promise<Exchange>;
}

const cases: OperationCase[] = [
  {
    operationId: 'createStream',
    requirements: ['EP-CREATE-STREAM', 'EP-CREATE-STREAM-201', 'STATE-STREAM-CREATE'],
    send: () =>
      call(
        'createStream',
        {},
        {
          body: {
            title: 'Conformance every field',
            quality: schemaDefaults['CreateStreamRequest.quality'],
            format: schemaDefaults['CreateStreamRequest.format'],
            metadata: { purpose: 'conformance' },
          },
        },
      ),
  },
  {
    operationId: 'listStreams',
    requirements: ['EP-STREAMS-NAMED', 'INF-OPENAPI-PATHS-STREAMS-GET'],
    send: async () => {
      await stream();
      return call('listStreams');
    },
  },
  {
    operationId: 'getStream',
    requirements: ['EP-STREAMS-NAMED', 'INF-OPENAPI-PATHS-STREAMS-STREAMID', 'INF-SCHEMAS-STREAM'],
    send: async () => call('getStream', { streamId: (await stream()).id }),
  },
  {
    operationId: 'updateStream',
    requirements: [
      'EP-STREAMS-NAMED',
      'INF-OPENAPI-PATHS-STREAMS-STREAMID',
      'INF-SCHEMAS-UPDATE-STREAM-REQUEST',
    ],
    send: async () =>
      call(
        'updateStream',
        { streamId: (await stream()).id },
        { body: { title: 'Conformance renamed stream' } },
      ),
  },
  {
    operationId: 'deleteStream',
    requirements: ['EP-STREAMS-NAMED', 'INF-OPENAPI-PATHS-STREAMS-STREAMID', 'INF-SCHEMAS-DELETED-OBJECT'],
    send: async () => {
      const { stream: doomed } = await createStream({ title: 'Conformance stream to delete' });
      return call('deleteStream', { streamId: doomed.id });
    },
  },
  {
    operationId: 'createSubscriberToken',
    requirements: [
      'EP-SUBSCRIBER-TOKENS',
      'INF-OPENAPI-PATHS-STREAMS-STREAMID-SUBSCRIBER_TOKENS-POST',
      'INF-SCHEMAS-SUBSCRIBER-TOKEN',
    ],
    send: async () => call('createSubscriberToken', { streamId: (await stream()).id }, { body: {} }),
  },
  {
    operationId: 'createReport',
    requirements: ['INF-OPENAPI-PATHS-REPORTS-POST', 'INF-SCHEMAS-REPORT-STATUS-X-TRANSITIONS-0'],
    send: () => call('createReport', {}, { body: { title: 'Conformance created report' } }),
  },
  {
    operationId: 'listReports',
    requirements: ['EP-LIST-REPORTS', 'EP-LIST-REPORTS-200'],
    send: async () => {
      await report();
      return call('listReports');
    },
  },
  {
    operationId: 'getReport',
    requirements: ['EP-REPORTS-NAMED', 'INF-OPENAPI-PATHS-REPORTS-REPORTID'],
    send: async () => call('getReport', { reportId: (await report()).id }),
  },
  {
    operationId: 'updateReport',
    requirements: ['INF-OPENAPI-PATHS-REPORTS-REPORTID', 'INF-SCHEMAS-UPDATE-REPORT-REQUEST'],
    send: async () =>
      call(
        'updateReport',
        { reportId: (await report()).id },
        { body: { title: 'Conformance renamed report' } },
      ),
  },
  {
    operationId: 'deleteReport',
    requirements: ['INF-OPENAPI-PATHS-REPORTS-REPORTID', 'INF-SCHEMAS-DELETED-OBJECT'],
    send: async () => {
      const { report: doomed } = await createReport('Conformance report to delete');
      return call('deleteReport', { reportId: doomed.id });
    },
  },
  {
    operationId: 'getReportFeed',
    requirements: ['RES-REPORT-URL', 'INF-OPENAPI-PATHS-REPORTS-REPORTID-FEED-XML-GET'],
    // Public: sent without credentials, as a feed reader would.
    send: async () => call('getReportFeed', { reportId: (await report()).id }, { key: null }),
  },
  {
    operationId: 'listRecords',
    requirements: ['EP-REPORTS-NAMED', 'INF-OPENAPI-PATHS-REPORTS-REPORTID-RECORDS'],
    send: async () => {
      await record();
      return call('listRecords', { reportId: (await report()).id });
    },
  },
  {
    operationId: 'createRecord',
    requirements: ['EP-REPORTS-NAMED', 'INF-OPENAPI-PATHS-REPORTS-REPORTID-RECORDS', 'INF-SCHEMAS-RECORD'],
    send: async () =>
      call('createRecord', { reportId: (await report()).id }, { body: { samples: [sample(Date.now(), 2)] } }),
  },
  {
    operationId: 'getRecord',
    requirements: ['INF-OPENAPI-PATHS-REPORTS-REPORTID-RECORDS', 'INF-SCHEMAS-RECORD'],
    send: async () => {
      const { id, reportId } = await record();
      return call('getRecord', { reportId, recordId: id });
    },
  },
  {
    operationId: 'updateRecord',
    requirements: [
      'EP-REPORTS-NAMED',
      'INF-OPENAPI-PATHS-REPORTS-REPORTID-RECORDS',
      'INF-SCHEMAS-UPDATE-RECORD-REQUEST',
    ],
    send: async () => {
      const { id, reportId } = await record();
      return call(
        'updateRecord',
        { reportId, recordId: id },
        { body: { title: 'Conformance renamed record' } },
      );
    },
  },
  {
    operationId: 'publishRecord',
    requirements: [
      'EP-REPORTS-NAMED',
      'INF-OPENAPI-PATHS-REPORTS-REPORTID-RECORDS',
      'INF-SCHEMAS-RECORD-STATUS',
    ],
    send: async () => {
      const { id: reportId } = await report();
      const { record: draft } = await createRecord(reportId, { samples: [sample(Date.now(), 3)] });
      return call('publishRecord', { reportId, recordId: draft.id });
    },
  },
  {
    operationId: 'deleteRecord',
    requirements: ['INF-OPENAPI-PATHS-REPORTS-REPORTID-RECORDS', 'INF-SCHEMAS-DELETED-OBJECT'],
    send: async () => {
      const { id: reportId } = await report();
      const { record: doomed } = await createRecord(reportId, { samples: [sample(Date.now(), 4)] });
      return call('deleteRecord', { reportId, recordId: doomed.id });
    },
  },
  {
    operationId: 'createWebhook',
    requirements: [
      'EP-CREATE-WEBHOOK',
      'EP-CREATE-WEBHOOK-SECRET',
      'INF-OPENAPI-PATHS-WEBHOOKS-POST-RESPONSES-201',
    ],
    send: async () => {
      // Made through the fixture so that the file deletes it afterwards.
      const { exchange } = await createWebhook({ url: loopbackWebhookUrl, events: ['report.deleted'] });
      return exchange;
    },
  },
  {
    operationId: 'listWebhooks',
    requirements: ['EP-WEBHOOKS-NAMED', 'INF-OPENAPI-PATHS-WEBHOOKS-GET'],
    send: async () => {
      await webhook();
      return call('listWebhooks');
    },
  },
  {
    operationId: 'getWebhook',
    requirements: ['INF-OPENAPI-PATHS-WEBHOOKS-WEBHOOKID'],
    send: async () => call('getWebhook', { webhookId: (await webhook()).id }),
  },
  {
    operationId: 'deleteWebhook',
    requirements: ['EP-WEBHOOKS-NAMED', 'INF-OPENAPI-PATHS-WEBHOOKS-WEBHOOKID', 'INF-SCHEMAS-DELETED-OBJECT'],
    send: async () => {
      const { webhook: doomed } = await createWebhook({
        url: loopbackWebhookUrl,
        events: ['report.deleted'],
      });
      return call('deleteWebhook', { webhookId: doomed.id });
    },
  },
  {
    operationId: 'testWebhook',
    requirements: ['INF-OPENAPI-PATHS-WEBHOOKS-WEBHOOKID-TEST-POST', 'INF-SCHEMAS-EVENT-WEBHOOK-TEST'],
    send: async () => call('testWebhook', { webhookId: (await webhook()).id }),
  },
  {
    operationId: 'listWebhookDeliveries',
    requirements: ['INF-OPENAPI-PATHS-WEBHOOKS-WEBHOOKID-DELIVERIES-GET', 'INF-SCHEMAS-WEBHOOK-DELIVERY'],
    send: async () => call('listWebhookDeliveries', { webhookId: (await webhook()).id }),
  },
  {
    operationId: 'rollWebhookSecret',
    requirements: ['INF-OPENAPI-PATHS-WEBHOOKS-WEBHOOKID-ROLL-SECRET-POST'],
    send: async () => call('rollWebhookSecret', { webhookId: (await webhook()).id }),
  },
  {
    operationId: 'retryWebhookDelivery',
    requirements: ['INF-OPENAPI-PATHS-WEBHOOKS-WEBHOOKID-DELIVERIES-DELIVERYID-RETRY-POST'],
    send: async () => {
      const { id: webhookId } = await webhook();
      await call('testWebhook', { webhookId });
      const listed = await call('listWebhookDeliveries', { webhookId });
      const [delivery] = (listed.response.body as { data?: Array<{ id: string }> }).data ?? [];
      return call('retryWebhookDelivery', { webhookId, deliveryId: delivery?.id ?? missingId('deliveryId') });
    },
  },
  {
    operationId: 'getAccount',
    requirements: ['INF-OPENAPI-PATHS-ACCOUNT-GET', 'INF-SCHEMAS-ACCOUNT'],
    send: () => call('getAccount'),
  },
];

/** Every answer of a successful operation, for the checks over all of them. */
const answers: Array<{ operationId: OperationId; exchange: Exchange }> = [];

// A REST operation the spec gains without a case here is a gap of the suite: it fails the run as a suite error.
const uncovered = restOperations.filter(
  (operationId) => !cases.some((item) => item.operationId === operationId),
);
if (uncovered.length > 0) throw new Error(`no operation check for ${uncovered.join(', ')}`);

describe('every REST operation answers with its documented status and schema', () => {
  for (const { operationId, requirements, send } of cases) {
    const { method, url } = routes[operationId];
    const status = successStatus(operationId);
    restCheck(
      requirements,
      `${operationId} (${method} ${url}) answers ${status} with a valid body`,
      async () => {
        const exchange = await send();
        answers.push({ operationId, exchange });
        expectOperationResponse(operationId, exchange, status);
      },
    );
  }

  restCheck(['SVC-JSON'], 'JSON answers carry the Content-Type the spec gives them', async () => {
    expectThat(answers.length > 0, 'answers of the operations above');
    for (const { operationId, exchange } of answers) {
      const responses: Readonly<Record<string, { contentType: string | null }>> =
        routes[operationId].responses;
      const expected = responses[String(exchange.response.status)]?.contentType;
      // The JSON answers only: the feed's RSS type is judged with the feed.
      if (expected === undefined || expected === null || !expected.endsWith('json')) continue;
      const actual = header(exchange, 'content-type') ?? '';
      expectThat(
        actual.split(';')[0]?.trim() === expected,
        `${operationId}: Content-Type ${expected} (got ${actual || 'none'})`,
        exchange,
      );
    }
  });

  restCheck(
    ['SVC-BASE-URL-VERSION', 'VER-BASE-URL'],
    '{base_url} ends with the version segment',
    async () => {
      const segment = apiVersionSegment();
      const exchange = await call('listReports');
      expectThat(
        new URL(currentTarget().baseUrl).pathname.replace(/\/+$/, '').endsWith(`/${segment}`),
        `a base URL ending in /${segment}`,
        exchange,
      );
      expectThat(exchange.response.status === 200, 'the API answering at that base URL', exchange);
    },
  );
});

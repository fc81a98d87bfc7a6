// Errors and events at their edges (issue 13, family 6): the Content-Type and RateLimit fields of error answers, a
// path outside the base path, NUL and control characters, and events of each kind reaching only the webhooks
// subscribed to them (seen through the deliveries list, so no receiver is needed).
import { describe } from 'vitest';
import { errorRoles } from '../../generated/types/errors.js';
import type { EventType, Stream } from '../../generated/types/schemas.js';
import { expectThat, expectWith } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { unknownKey } from './support/auth-keys.js';
import { restCheck } from './support/rest-check.js';
import {
  createRecord,
  createReport,
  createStream,
  createWebhook,
  deleteWebhooksAfterAll,
  loopbackWebhookUrl,
  publishRecord,
  sample,
} from './support/rest-fixtures.js';
import {
  call,
  expectError,
  expectListPage,
  expectOperationResponse,
  header,
  missingId,
} from './support/rest-http.js';
import { apiVersionSegment } from './support/rest-spec.js';

/** Several sequential requests each: room for a loaded machine, far beyond what they take on a quiet one. */
const slowMachine = { timeout: 60_000 };

deleteWebhooksAfterAll();

/** Error answers of each kind the API gives a client: 400, 401, 403, 404 (object and route), 405. */
async function errorAnswers(): Promise<Exchange[]> {
  const { keys } = currentTarget();
  const answers = [
    await call('createStream', {}, { body: {} }),
    await call('listStreams', {}, { key: unknownKey('secret') }),
    await call('getStream', { streamId: missingId('streamId') }),
    await send('GET', '/conformance-no-such-path'),
    await send('PUT', '/streams'),
  ];
  if (keys.publishable !== null)
    answers.push(await call('createStream', {}, { key: keys.publishable, body: { title: 'Conformance' } }));
  return answers;
}

/** The deliveries a webhook has, by event type. */
async function deliveredTypes(webhookId: string): Promise<EventType[]> {
  const exchange = await call('listWebhookDeliveries', { webhookId });
  return expectListPage<{ eventType: EventType }>('listWebhookDeliveries', exchange).data.map(
    (delivery) => delivery.eventType,
  );
}

describe('error answers at their edges', () => {
  restCheck(
    ['SVC-JSON', 'ERR-ENVELOPE'],
    'every error answer (400, 401, 403, 404 of an object and of a path, 405) is JSON with Content-Type application/json',
    async () => {
      for (const exchange of await errorAnswers()) {
        expectThat(exchange.response.status >= 400, 'an error status', exchange);
        expectThat(
          /^application\/json\b/.test(header(exchange, 'content-type') ?? ''),
          'Content-Type application/json',
          exchange,
        );
        const body = exchange.response.body as { error?: { type?: unknown } } | undefined;
        expectThat(typeof body?.error?.type === 'string', 'the error envelope', exchange);
      }
    },
    slowMachine,
  );

  restCheck(
    ['INF-OPENAPI-COMPONENTS-HEADERS-RATELIMIT', 'INF-OPENAPI-COMPONENTS-HEADERS-RATELIMITPOLICY'],
    'answers counted against a key carry RateLimit and RateLimit-Policy, refusals (400, 403, 404) included',
    async () => {
      const counted = (await errorAnswers()).filter((exchange) =>
        [400, 403, 404].includes(exchange.response.status),
      );
      const objectMissing = counted.filter((exchange) => exchange.request.url.includes('/streams/'));
      expectThat(objectMissing.length > 0, 'a 404 of an object among the answers');
      for (const exchange of counted.filter((each) => !each.request.url.includes('conformance-no-such-path')))
        expectThat(
          header(exchange, 'ratelimit') !== undefined && header(exchange, 'ratelimit-policy') !== undefined,
          'RateLimit and RateLimit-Policy on a counted refusal',
          exchange,
        );
    },
    slowMachine,
  );

  restCheck(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-ROUTE_NOT_FOUND'],
    'a path outside the base path (the operation’s path without the version segment) is 404 route_not_found',
    async () => {
      // `{base_url}/../streams`: the URL parser resolves the dot segment, so the request goes to `/streams` itself.
      const exchange = await send('GET', '/../streams');
      expectThat(
        !exchange.request.url.includes(`/${apiVersionSegment()}/`),
        'a request outside the base path',
        exchange,
      );
      expectError(exchange, { code: errorRoles.routeNotFound }, undefined);
    },
    slowMachine,
  );

  restCheck(
    ['EP-CREATE-STREAM', 'ERR-ENVELOPE'],
    'control characters in a title are kept exactly or refused with 400 naming title; NUL in an id or a title is never a 2xx or a 5xx',
    async () => {
      const controls = `Conformance ${String.fromCharCode(1, 7, 9, 10, 13, 27, 31, 127)} end`;
      const created = await call('createStream', {}, { body: { title: controls } });
      if (created.response.status === 201) {
        const stream = created.response.body as Stream;
        const read = await call('getStream', { streamId: stream.id });
        const got = expectOperationResponse('getStream', read, 200) as Stream;
        expectThat(got.title === controls, 'the title with its control characters, as given', read);
      } else expectError(created, { code: errorRoles.invalidParameter, param: 'title' }, 'createStream');
      const { stream } = await createStream({ title: 'Conformance NUL target' });
      for (const exchange of [
        await call('createStream', {}, { body: { title: 'Conformance \u0000 NUL' } }),
        await call('updateStream', { streamId: stream.id }, { body: { metadata: { key: 'a\u0000b' } } }),
        await call('getStream', { streamId: `${stream.id}\u0000` }),
      ]) {
        const { status } = exchange.response;
        const body = exchange.response.body as { error?: unknown } | undefined;
        expectThat(
          status >= 400 && status < 500 && body?.error !== undefined,
          'a 4xx with the error envelope',
          exchange,
        );
      }
      const read = await call('getStream', { streamId: stream.id });
      const got = expectOperationResponse('getStream', read, 200) as Stream;
      expectThat(JSON.stringify(got.metadata) === '{}', 'the metadata unchanged by the refused update', read);
    },
    slowMachine,
  );
});

describe('events of each kind, only where subscribed', () => {
  restCheck(
    ['EVT-TYPE-WEBHOOK-TEST', 'EVT-SUBSCRIBE-EVENTS'],
    'a test event goes to the webhook it was asked for only, not to another one subscribed to webhook.test',
    async () => {
      const { webhook: asked } = await createWebhook({ url: loopbackWebhookUrl, events: ['webhook.test'] });
      const { webhook: other } = await createWebhook({ url: loopbackWebhookUrl, events: ['webhook.test'] });
      expectOperationResponse('testWebhook', await call('testWebhook', { webhookId: asked.id }), 201);
      const [mine, theirs] = [await deliveredTypes(asked.id), await deliveredTypes(other.id)];
      expectWith(
        mine.length === 1 && mine[0] === 'webhook.test' && theirs.length === 0,
        `one webhook.test delivery for ${asked.id}, none for ${other.id}`,
        { mine, theirs },
      );
    },
    slowMachine,
  );

  restCheck(
    [
      'STATE-RECORD-PUBLISHED-EVENT',
      'STATE-RECORD-DELETED-EVENT',
      'EVT-TYPE-REPORT-DELETED',
      'EVT-SUBSCRIBE-EVENTS',
    ],
    'publishing a record emits report.generated and deleting it report.deleted, each to the webhooks subscribed to it',
    async () => {
      const { webhook: generated } = await createWebhook({
        url: loopbackWebhookUrl,
        events: ['report.generated'],
      });
      const { webhook: deleted } = await createWebhook({
        url: loopbackWebhookUrl,
        events: ['report.deleted'],
      });
      const { report } = await createReport('Conformance report events');
      const { record } = await createRecord(report.id, { samples: [sample(1_700_000_000_000)] });
      await publishRecord(report.id, record.id);
      const removal = await call('deleteRecord', { reportId: report.id, recordId: record.id });
      expectOperationResponse('deleteRecord', removal, 200);
      const [first, second] = [await deliveredTypes(generated.id), await deliveredTypes(deleted.id)];
      expectWith(
        first.join() === 'report.generated' && second.join() === 'report.deleted',
        'one report.generated delivery to the first webhook, one report.deleted to the second',
        { generated: first, deleted: second },
      );
    },
    slowMachine,
  );
});

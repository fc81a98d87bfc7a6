// Every REST operation with a secret key, and the documented and inferred behaviours of streams, reports, records
// and webhooks, through inject() on the reference service.
import { describe, expect, it } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import {
  apiPolicies,
  qualityMembers,
  reportStatusFacts,
  schemaDefaults,
  schemaPatterns,
  streamStatusFacts,
} from '../../generated/types/facts.js';
import type {
  CreatedWebhook,
  EventType,
  Format,
  Quality,
  Report,
  Stream,
  SubscriberToken,
  Webhook,
  WebhookDelivery,
  WebhookTestEvent,
} from '../../generated/types/schemas.js';
import type { ErrorCode } from '../problems.js';
import { AccountResources, bodyOf, type ListOf, restCaller } from '../testing/account-resources.js';
import { type RestOperationId, restOperationIds } from '../testing/call-operation.js';
import { expectProblem } from '../testing/expect-problem.js';
import { idAndTimeProblems } from '../testing/object-checks.js';
import { isProtected, scenarios, successStatus } from '../testing/operation-scenarios.js';
import { documentedBody, responseProblem } from '../testing/response-validators.js';
import { fixtureRegion, useServiceFixture } from '../testing/service-fixture.js';

const fixture = useServiceFixture();
const call = () => restCaller(fixture());

async function freshAccount() {
  const account = await fixture().createAccount('paid');
  return { account, resources: new AccountResources(call(), account.keys.secret.key) };
}

async function deliveriesOf(resources: AccountResources, webhookId: string) {
  const reply = await resources.call('listWebhookDeliveries', {
    token: resources.secretKey,
    params: { webhookId },
  });
  return bodyOf<ListOf<WebhookDelivery>>(reply, 200).data;
}

const initialStatus = (transitions: ReadonlyArray<{ from: string | null; to: string }>) =>
  transitions.find((transition) => transition.from === null)?.to;

describe('every REST operation with a secret key', () => {
  it.each(restOperationIds)('%s answers its documented status with a valid body', async (operationId) => {
    const { resources } = await freshAccount();
    const parts = await scenarios[operationId](resources);
    const reply = await call()(operationId, {
      ...parts,
      token: isProtected(operationId) ? resources.secretKey : null,
    });
    const status = successStatus(operationId);
    expect(reply.status, reply.text).toBe(status);
    const body = documentedBody(operationId, reply);
    expect(responseProblem(operationId, status, body)).toBeNull();
    expect(idAndTimeProblems(body)).toEqual([]);
  });
});

const candidateFormats: readonly Format[] = ['csv', 'msgpack'];

describe('streams', () => {
  const otherQuality = Object.keys(qualityMembers).find(
    (quality) => quality !== schemaDefaults['CreateStreamRequest.quality'],
  ) as Quality;
  const otherFormat: Format =
    candidateFormats.find((format) => format !== schemaDefaults['CreateStreamRequest.format']) ?? 'csv';
  const cases: Array<[string, { given: object; want: Partial<Stream> }]> = [
    [
      'defaults',
      {
        given: { title: 'Pump 7' },
        want: {
          quality: schemaDefaults['CreateStreamRequest.quality'],
          format: schemaDefaults['CreateStreamRequest.format'],
          region: fixtureRegion,
          metadata: schemaDefaults.Metadata,
          status: initialStatus(streamStatusFacts.transitions) as Stream['status'],
          subscriberCount: 0,
          startedAt: null,
          recordingReportId: null,
        },
      },
    ],
    [
      'given values',
      {
        given: {
          title: 'Pump 8',
          quality: otherQuality,
          format: otherFormat,
          region: 'eu-west-2',
          metadata: { a: 'b' },
        },
        want: { quality: otherQuality, format: otherFormat, region: 'eu-west-2', metadata: { a: 'b' } },
      },
    ],
  ];
  it.each(cases)('create (%s)', async (_name, { given, want }) => {
    const { resources } = await freshAccount();
    const created = await resources.stream(given);
    expect(created).toMatchObject(want);
    const fetched = await call()('getStream', {
      token: resources.secretKey,
      params: { streamId: created.id },
    });
    expect(bodyOf<Stream>(fetched, 200)).toMatchObject(want);
  });

  it('shows the streamKey in the 201 only, never in get, list or update', async () => {
    const { resources } = await freshAccount();
    const created = await resources.stream();
    expect(created.streamKey).toMatch(new RegExp(schemaPatterns['CreatedStream.streamKey']));
    const token = resources.secretKey;
    const params = { streamId: created.id };
    const later = [
      bodyOf<Stream>(await call()('getStream', { token, params }), 200),
      bodyOf<Stream>(await call()('updateStream', { token, params, body: { title: 'Renamed' } }), 200),
      ...bodyOf<ListOf<Stream>>(await call()('listStreams', { token }), 200).data,
    ];
    expect(later.map((stream) => stream.id)).toContain(created.id);
    for (const stream of later) expect(stream).not.toHaveProperty('streamKey');
    expect(JSON.stringify(later)).not.toContain(created.streamKey);
  });

  const liveCases: Array<
    [
      string,
      { given: { operationId: RestOperationId; body?: object }; want: ErrorCode | number; param?: string },
    ]
  > = [
    [
      'quality',
      {
        given: { operationId: 'updateStream', body: { quality: otherQuality } },
        want: 'stream_live',
        param: 'quality',
      },
    ],
    [
      'format',
      {
        given: { operationId: 'updateStream', body: { format: otherFormat } },
        want: 'stream_live',
        param: 'format',
      },
    ],
    ['delete', { given: { operationId: 'deleteStream' }, want: 'stream_live' }],
    ['title', { given: { operationId: 'updateStream', body: { title: 'Renamed while live' } }, want: 200 }],
  ];
  it.each(liveCases)('while live: %s', async (_name, { given, want, param }) => {
    const { account, resources } = await freshAccount();
    const stream = await resources.stream();
    // Only a device connection makes a stream live; the store stands in for the MQTT broker here.
    await fixture().store.streams.update(account.accountId, stream.id, { status: 'live' });
    const reply = await call()(given.operationId, {
      token: resources.secretKey,
      params: { streamId: stream.id },
      ...(given.body === undefined ? {} : { body: given.body }),
    });
    if (typeof want === 'number') expect(reply.status, reply.text).toBe(want);
    else expectProblem(reply, want, param);
  });
});

describe('reports and records', () => {
  it('counts records as they are created and deleted', async () => {
    const { resources } = await freshAccount();
    const report = await resources.report();
    const token = resources.secretKey;
    const countNow = async () =>
      bodyOf<Report>(await call()('getReport', { token, params: { reportId: report.id } }), 200).recordCount;
    expect(report.recordCount).toBe(0);
    const first = await resources.record(report.id);
    await resources.record(report.id);
    expect(await countNow()).toBe(2);
    const removal = await call()('deleteRecord', {
      token,
      params: { reportId: report.id, recordId: first.id },
    });
    expect(removal.status, removal.text).toBe(successStatus('deleteRecord'));
    expect(await countNow()).toBe(1);
  });

  it('publishing makes the report published and queues report.generated for subscribed webhooks only', async () => {
    const { resources } = await freshAccount();
    const subscribed = await resources.webhook(['report.generated']);
    const unsubscribed = await resources.webhook(['device.online']);
    const report = await resources.report();
    expect(report.status).toBe(initialStatus(reportStatusFacts.transitions));
    const record = await resources.record(report.id);
    const published = await resources.publish(report.id, record.id);
    expect(published).toMatchObject({ id: record.id, status: 'published' });
    expect(published.publishedAt).toMatch(new RegExp(schemaPatterns.Timestamp));
    const token = resources.secretKey;
    const after = bodyOf<Report>(await call()('getReport', { token, params: { reportId: report.id } }), 200);
    expect(after.status).toBe('published');
    expect((await deliveriesOf(resources, subscribed.id)).map((delivery) => delivery.eventType)).toEqual([
      'report.generated',
    ]);
    expect(await deliveriesOf(resources, unsubscribed.id)).toEqual([]);
    const again = await call()('publishRecord', {
      token,
      params: { reportId: report.id, recordId: record.id },
    });
    expectProblem(again, 'record_published');
    const change = await call()('updateRecord', {
      token,
      params: { reportId: report.id, recordId: record.id },
      body: { title: 'Changed after publishing' },
    });
    expectProblem(change, 'record_published');
  });

  it('deleting a published record queues report.deleted; deleting a draft queues nothing', async () => {
    const { resources } = await freshAccount();
    const webhook = await resources.webhook(['report.deleted']);
    const report = await resources.report();
    const draft = await resources.record(report.id);
    const record = await resources.record(report.id);
    await resources.publish(report.id, record.id);
    const token = resources.secretKey;
    for (const recordId of [draft.id, record.id]) {
      const reply = await call()('deleteRecord', { token, params: { reportId: report.id, recordId } });
      expect(reply.status, reply.text).toBe(successStatus('deleteRecord'));
    }
    const deliveries = await deliveriesOf(resources, webhook.id);
    expect(deliveries.map((delivery) => [delivery.eventType, delivery.status])).toEqual([
      ['report.deleted', 'pending'],
    ]);
  });

  const archivedCases: Array<[RestOperationId, { body?: object; want: ErrorCode }]> = [
    ['createRecord', { body: { samples: [{ ts: 1, values: { rpm: 1 } }] }, want: 'report_archived' }],
    ['updateRecord', { body: { title: 'Late change' }, want: 'report_archived' }],
    ['publishRecord', { want: 'report_archived' }],
    ['deleteRecord', { want: 'report_archived' }],
    ['updateReport', { body: { status: 'archived' }, want: 'report_archived' }],
  ];
  it.each(archivedCases)('an archived report refuses %s', async (operationId, { body, want }) => {
    const { resources } = await freshAccount();
    const report = await resources.report();
    const record = await resources.record(report.id);
    const token = resources.secretKey;
    const archive = await call()('updateReport', {
      token,
      params: { reportId: report.id },
      body: { status: 'archived' },
    });
    expect(bodyOf<Report>(archive, 200).status).toBe('archived');
    const reply = await call()(operationId, {
      token,
      params: { reportId: report.id, recordId: record.id },
      ...(body === undefined ? {} : { body }),
    });
    expectProblem(reply, want);
  });

  it('serves the RSS feed without credentials, listing only published records', async () => {
    const { resources } = await freshAccount();
    const report = await resources.report('Feed <&> test');
    const draft = await resources.record(report.id);
    const published = await resources.record(report.id);
    await resources.publish(report.id, published.id);
    const feed = await call()('getReportFeed', { params: { reportId: report.id } });
    expect(feed.status).toBe(successStatus('getReportFeed'));
    expect(String(feed.headers['content-type'])).toContain(routes.getReportFeed.responses['200'].contentType);
    expect(feed.text).toContain('<rss version="2.0">');
    expect(feed.text).toContain(published.id);
    expect(feed.text).not.toContain(draft.id);
    expect(feed.text).not.toContain('Feed <&> test');
    expect(report.reportUrl.endsWith(`/reports/${report.id}/feed.xml`)).toBe(true);
  });
});

describe('webhooks', () => {
  it('shows the signingSecret in the 201 only, never in get or list', async () => {
    const { resources } = await freshAccount();
    const created: CreatedWebhook = await resources.webhook();
    expect(created.signingSecret).toMatch(new RegExp(schemaPatterns['CreatedWebhook.signingSecret']));
    const token = resources.secretKey;
    const later = [
      bodyOf<Webhook>(await call()('getWebhook', { token, params: { webhookId: created.id } }), 200),
      ...bodyOf<ListOf<Webhook>>(await call()('listWebhooks', { token }), 200).data,
    ];
    expect(later.map((webhook) => webhook.id)).toContain(created.id);
    for (const webhook of later) expect(webhook).not.toHaveProperty('signingSecret');
    expect(JSON.stringify(later)).not.toContain(created.signingSecret);
  });

  it(`refuses webhook ${apiPolicies.limits.maxWebhooksPerAccount + 1} of an account with webhook_limit_reached`, async () => {
    const { resources } = await freshAccount();
    for (let index = 0; index < apiPolicies.limits.maxWebhooksPerAccount; index += 1)
      await resources.webhook();
    const reply = await call()('createWebhook', {
      token: resources.secretKey,
      body: { url: 'https://hooks.example.com/one-more', events: ['webhook.test'] satisfies EventType[] },
    });
    expectProblem(reply, 'webhook_limit_reached');
  });

  it('sends a test event to that webhook only, whatever it subscribes to', async () => {
    const { resources } = await freshAccount();
    const target = await resources.webhook(['device.online']);
    const bystander = await resources.webhook(['webhook.test']);
    const reply = await call()('testWebhook', {
      token: resources.secretKey,
      params: { webhookId: target.id },
    });
    const event = bodyOf<WebhookTestEvent>(reply, successStatus('testWebhook'));
    expect(event.type).toBe('webhook.test');
    const deliveries = await deliveriesOf(resources, target.id);
    expect(deliveries.map((delivery) => [delivery.eventId, delivery.eventType])).toEqual([
      [event.id, 'webhook.test'],
    ]);
    expect(await deliveriesOf(resources, bystander.id)).toEqual([]);
  });
});

describe('subscriber tokens', () => {
  it('are created with a publishable key', async () => {
    const { account, resources } = await freshAccount();
    const stream = await resources.stream();
    const reply = await call()('createSubscriberToken', {
      token: account.keys.publishable.key,
      params: { streamId: stream.id },
      body: { expiresIn: 900 },
    });
    const token = bodyOf<SubscriberToken>(reply, successStatus('createSubscriberToken'));
    expect(responseProblem('createSubscriberToken', reply.status, token)).toBeNull();
    expect(token).toMatchObject({ streamId: stream.id, wsUrl: stream.wsUrl });
    expect(Date.parse(token.expiresAt) - fixture().clock.now()).toBe(900_000);
  });
});

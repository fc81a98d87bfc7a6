import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import {
  apiPolicies,
  channelFacts,
  schemaDefaults,
  schemaPatterns,
  streamStatusFacts,
} from '../../generated/types/facts.js';
import type { EventType, ReportStatus, StreamStatus, Webhook } from '../../generated/types/schemas.js';
import {
  validateCreateSubscriberTokenResponse201,
  validateGetAccountResponse200,
  validateGetReportResponse200,
  validateGetStreamResponse200,
  validateGetWebhookResponse200,
  validateTestWebhookResponse201,
  validateUpdateReportResponse200,
  validateUpdateStreamResponse200,
} from '../../generated/validators/index.js';
import { expectThat } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { restCheck } from './support/rest-check.js';
import {
  createRecord,
  createReport,
  createStream,
  createWebhook,
  deleteWebhook,
  deleteWebhooksAfterAll,
  loopbackWebhookUrl,
  mapConcurrently,
  once,
  publishRecord,
  sample,
} from './support/rest-fixtures.js';
import {
  call,
  expectError,
  expectListPage,
  expectOperationResponse,
  expectValid,
  header,
  type ListPage,
  pathUnder,
} from './support/rest-http.js';
import { judgesInferred, requirementById } from './support/rest-requirements.js';
import { limitBounds, ResolvedSchema, specValue } from './support/rest-spec.js';

deleteWebhooksAfterAll();

const published: ReportStatus = 'published';
const archived: ReportStatus = 'archived';
const draft: ReportStatus = 'draft';
const active: Webhook['status'] = 'active';
const idle = streamStatusFacts.transitions.find((transition) => transition.from === null)?.to;

/** The value a documented statement points at first (`object` = `stream`): the spec's own word, not a copy. */
function documentedValue(requirementId: string): unknown {
  const [pointer] = requirementById(requirementId).pointers;
  if (pointer === undefined) throw new Error(`${requirementId} points nowhere`);
  return specValue(pointer);
}

function isTimestamp(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    new RegExp(schemaPatterns.Timestamp).test(value) &&
    !Number.isNaN(Date.parse(value))
  );
}

/** A stream created with its title only, so that every other field shows its default. */
const plainStream = once(() => createStream({ title: 'Conformance defaults stream' }));

describe('resources: streams', () => {
  restCheck(
    [
      'RES-STREAM-STATUS-IDLE-ON-CREATION',
      'STATE-STREAM-VALUES',
      'STATE-STREAM-CREATE',
      'RES-STREAM-SUBSCRIBER-COUNT',
    ],
    'a new stream is idle with no subscribers',
    async () => {
      const { stream, exchange } = await plainStream();
      expectThat(stream.status === idle, `status ${idle}`, exchange);
      // Nobody can have subscribed to a stream that did not exist.
      expectThat(stream.subscriberCount === 0, 'subscriberCount 0', exchange);
    },
  );

  restCheck(
    ['EP-CREATE-STREAM-QUALITY-DEFAULT', 'EP-CREATE-STREAM-FORMAT-DEFAULT', 'RES-STREAM-METADATA-DEFAULT'],
    'quality, format and metadata take their defaults when not given',
    async () => {
      const { stream, exchange } = await plainStream();
      expectThat(
        stream.quality === schemaDefaults['CreateStreamRequest.quality'],
        'the default quality',
        exchange,
      );
      expectThat(
        stream.format === schemaDefaults['CreateStreamRequest.format'],
        'the default format',
        exchange,
      );
      expectThat(
        JSON.stringify(stream.metadata) === JSON.stringify(schemaDefaults.Metadata),
        `metadata ${JSON.stringify(schemaDefaults.Metadata)}`,
        exchange,
      );
    },
  );

  restCheck(
    ['EP-CREATE-STREAM-REGION-DEFAULT'],
    'region defaults to the account’s default region',
    async () => {
      const { stream, exchange } = await plainStream();
      // The account's default region is visible only through GET /account, an inferred operation.
      const account = await call('getAccount');
      const { defaultRegion } = expectValid(validateGetAccountResponse200, account, 200, 'getAccount');
      expectThat(stream.region === defaultRegion, `region ${defaultRegion}, the account’s default`, exchange);
    },
  );

  restCheck(
    ['RES-STREAM-REGION'],
    'a stream carries its ingestion region, a region name, the same when created, read and listed',
    async () => {
      const { stream, exchange } = await plainStream();
      const pattern = new RegExp(schemaPatterns.Region);
      expectThat(
        typeof stream.region === 'string' && pattern.test(stream.region),
        `a region matching ${pattern}`,
        exchange,
      );
      // Read back without judging the rest of the body: other checks own its schema.
      const read = await call('getStream', { streamId: stream.id });
      const got = read.response.body as { region?: unknown };
      expectThat(
        read.response.status === 200 && got.region === stream.region,
        'the same region when read',
        read,
      );
    },
  );

  restCheck(
    ['INF-SCHEMAS-STREAM-PROPERTIES-PROPERTIES-TITLE'],
    'a stream title is 1 to 200 characters: an empty one is refused on create and update, 200 characters are kept as given',
    async () => {
      const { stream } = await plainStream();
      const empty = await call('createStream', {}, { body: { title: '' } });
      expectError(empty, { code: 'parameter_invalid', param: 'title' }, 'createStream');
      const emptied = await call('updateStream', { streamId: stream.id }, { body: { title: '' } });
      expectError(emptied, { code: 'parameter_invalid', param: 'title' }, 'updateStream');
      const longest = 'T'.repeat(200);
      const renamed = await call('updateStream', { streamId: stream.id }, { body: { title: longest } });
      const updated = renamed.response.body as { title?: unknown };
      expectThat(
        renamed.response.status === 200 && updated.title === longest,
        'the 200-character title as given',
        renamed,
      );
      const restored = await call(
        'updateStream',
        { streamId: stream.id },
        { body: { title: 'Conformance defaults stream' } },
      );
      expectOperationResponse('updateStream', restored, 200);
    },
  );

  restCheck(
    [
      'INF-SCHEMAS-STREAM-PROPERTIES-PROPERTIES-STARTEDAT',
      'INF-SCHEMAS-STREAM-PROPERTIES-PROPERTIES-RECORDINGREPORTID',
    ],
    'an idle stream that records nowhere has startedAt and recordingReportId null',
    async () => {
      const { stream, exchange } = await plainStream();
      expectThat(stream.startedAt === null, 'startedAt null while idle', exchange);
      expectThat(stream.recordingReportId === null, 'recordingReportId null', exchange);
    },
  );

  restCheck(
    ['RES-STREAM-MQTT-TOPIC', 'RES-STREAM-WS-URL'],
    'mqttTopic and wsUrl name the stream’s own id',
    async () => {
      const { stream, exchange } = await plainStream();
      const topic = channelFacts.deviceTelemetry.address.replace('{streamId}', stream.id);
      const live = channelFacts.liveFeed.address.replace('{streamId}', stream.id);
      expectThat(stream.mqttTopic.endsWith(`/${topic}`), `mqttTopic ending in /${topic}`, exchange);
      expectThat(stream.wsUrl.endsWith(live), `wsUrl ending in ${live}`, exchange);
    },
  );

  restCheck(
    ['RES-STREAM-KEY', 'INF-SCHEMAS-STREAM', 'INF-SCHEMAS-CREATED-STREAM-PROPERTIES-STREAMKEY'],
    'streamKey is in the creation response only: never in get, list or update',
    async () => {
      const { stream, exchange } = await plainStream();
      expectThat(
        new RegExp(schemaPatterns['CreatedStream.streamKey']).test(stream.streamKey),
        'a streamKey',
        exchange,
      );
      const get = await call('getStream', { streamId: stream.id });
      expectThat(
        !('streamKey' in (expectValid(validateGetStreamResponse200, get, 200, 'getStream') as object)),
        'no streamKey',
        get,
      );
      const list = await call('listStreams');
      const item = expectListPage<object & { id: string }>('listStreams', list).data.find(
        (entry) => entry.id === stream.id,
      );
      expectThat(item !== undefined && !('streamKey' in item), 'the stream listed without streamKey', list);
      const update = await call(
        'updateStream',
        { streamId: stream.id },
        { body: { metadata: { line: 'B' } } },
      );
      expectThat(
        !(
          'streamKey' in (expectValid(validateUpdateStreamResponse200, update, 200, 'updateStream') as object)
        ),
        'no streamKey',
        update,
      );
    },
  );

  restCheck(
    ['INF-SCHEMAS-UPDATE-STREAM-REQUEST', 'INF-SCHEMAS-CREATE-STREAM-REQUEST-PROPERTIES-RECORDINGREPORTID'],
    'fields given are kept; an update changes only its fields; recordingReportId null stops recording',
    async () => {
      const { report } = await createReport('Conformance recording target');
      const { stream, exchange } = await createStream({
        title: 'Conformance recording stream',
        metadata: { site: 'conformance' },
        recordingReportId: report.id,
      });
      expectThat(
        stream.recordingReportId === report.id && stream.metadata.site === 'conformance',
        'the fields as given',
        exchange,
      );
      const renamed = await call(
        'updateStream',
        { streamId: stream.id },
        { body: { title: 'Conformance renamed' } },
      );
      const after = expectValid(validateUpdateStreamResponse200, renamed, 200, 'updateStream');
      expectThat(
        after.title === 'Conformance renamed' &&
          after.recordingReportId === report.id &&
          after.metadata.site === 'conformance',
        'the new title, the other fields unchanged',
        renamed,
      );
      const stopped = await call(
        'updateStream',
        { streamId: stream.id },
        { body: { recordingReportId: null } },
      );
      const final = expectValid(validateUpdateStreamResponse200, stopped, 200, 'updateStream');
      expectThat(final.recordingReportId === null, 'recordingReportId null', stopped);
    },
  );

  restCheck(
    ['EP-SUBSCRIBER-TOKENS', 'INF-SCHEMAS-SUBSCRIBER-TOKEN', 'INF-SCHEMAS-CREATE-SUBSCRIBER-TOKEN-REQUEST'],
    'a subscriber token is bound to its stream and lives expiresIn seconds, the default when not given',
    async () => {
      const { stream } = await plainStream();
      const expiresIn = ResolvedSchema.at('schemas/create-subscriber-token-request.yaml', [
        'properties',
        'expiresIn',
      ]);
      const minimum = expiresIn.number('minimum');
      for (const [body, seconds] of [
        [{}, schemaDefaults['CreateSubscriberTokenRequest.expiresIn']],
        [{ expiresIn: minimum }, minimum],
      ] as const) {
        const exchange = await call('createSubscriberToken', { streamId: stream.id }, { body });
        const token = expectValid(
          validateCreateSubscriberTokenResponse201,
          exchange,
          201,
          'createSubscriberToken',
        );
        expectThat(
          token.streamId === stream.id && token.wsUrl === stream.wsUrl,
          'the stream’s id and wsUrl',
          exchange,
        );
        // Measured against the answer's own Date header (whole seconds), so clocks of suite and target never matter.
        const issued = Date.parse(header(exchange, 'date') ?? '');
        const lifetime = (Date.parse(token.expiresAt) - issued) / 1000;
        expectThat(
          seconds !== undefined && Math.abs(lifetime - seconds) <= 2,
          `expiresAt ${seconds} s after the Date header (${lifetime} s)`,
          exchange,
        );
      }
    },
  );
});

/** An object of one kind, made (or read) through the API, with the answer that carried it. */
interface Sample {
  value: { id: string; object?: unknown; createdAt?: unknown };
  exchange: Exchange;
}

const webhookForEvents = once(() => createWebhook({ url: loopbackWebhookUrl, events: ['webhook.test'] }));
const kindsReport = once(async () => {
  const { report, exchange } = await createReport('Conformance kinds report');
  return { value: report, exchange };
});
const testEvent = once(async () => {
  const { webhook } = await webhookForEvents();
  const exchange = await call('testWebhook', { webhookId: webhook.id });
  return { value: expectValid(validateTestWebhookResponse201, exchange, 201, 'testWebhook'), exchange };
});

/**
 * Every kind of object, how to get one, and the requirements on its id, `object` and `createdAt`: the documented
 * ones where the document names the kind, the inferred ones otherwise.
 */
const kinds: Array<{
  name: string;
  sample: () => Promise<Sample>;
  idPattern: keyof typeof schemaPatterns;
  prefixRequirement: string | null;
  idRequirement: string;
  objectRequirement: string | null;
  createdAtRequirements: string[];
}> = [
  {
    name: 'stream',
    sample: async () => {
      const { stream, exchange } = await plainStream();
      return { value: stream, exchange };
    },
    idPattern: 'StreamId',
    prefixRequirement: 'RES-ID-PREFIX-STREAM',
    idRequirement: 'INF-SCHEMAS-IDS-DEFS-STREAMID',
    objectRequirement: 'RES-STREAM-OBJECT',
    createdAtRequirements: ['RES-STREAM-CREATED-AT', 'RES-TIMESTAMPS-UTC'],
  },
  {
    name: 'report',
    sample: kindsReport,
    idPattern: 'ReportId',
    prefixRequirement: 'RES-ID-PREFIX-REPORT',
    idRequirement: 'INF-SCHEMAS-IDS-DEFS-REPORTID',
    objectRequirement: 'RES-REPORT-OBJECT',
    createdAtRequirements: ['RES-STREAM-CREATED-AT', 'RES-TIMESTAMPS-UTC'],
  },
  {
    name: 'webhook',
    sample: async () => {
      const { webhook, exchange } = await webhookForEvents();
      return { value: webhook, exchange };
    },
    idPattern: 'WebhookId',
    prefixRequirement: 'RES-ID-PREFIX-WEBHOOK',
    idRequirement: 'INF-SCHEMAS-IDS-DEFS-WEBHOOKID',
    objectRequirement: 'RES-WEBHOOK-OBJECT',
    createdAtRequirements: ['RES-STREAM-CREATED-AT', 'RES-TIMESTAMPS-UTC'],
  },
  {
    name: 'event',
    sample: testEvent,
    idPattern: 'EventId',
    prefixRequirement: 'RES-ID-PREFIX-EVENT',
    idRequirement: 'INF-SCHEMAS-IDS-DEFS-EVENTID',
    objectRequirement: 'RES-EVENT-OBJECT',
    // Events carry `created` in Unix seconds instead; checked below.
    createdAtRequirements: [],
  },
  {
    name: 'record',
    sample: once(async () => {
      const { value: report } = await kindsReport();
      const { record, exchange } = await createRecord(report.id, { samples: [sample(Date.now())] });
      return { value: record, exchange };
    }),
    idPattern: 'RecordId',
    prefixRequirement: null,
    idRequirement: 'INF-SCHEMAS-IDS-DEFS-RECORDID',
    objectRequirement: null,
    createdAtRequirements: ['INF-SCHEMAS-RECORD'],
  },
  {
    name: 'webhook delivery',
    sample: once(async () => {
      await testEvent();
      const { webhook } = await webhookForEvents();
      const exchange = await call('listWebhookDeliveries', { webhookId: webhook.id });
      const [delivery] = expectListPage<{ id: string; createdAt: string }>(
        'listWebhookDeliveries',
        exchange,
      ).data;
      expectThat(delivery !== undefined, 'the test event’s delivery listed', exchange);
      return { value: delivery, exchange };
    }),
    idPattern: 'DeliveryId',
    prefixRequirement: null,
    idRequirement: 'INF-SCHEMAS-IDS-DEFS-DELIVERYID',
    objectRequirement: null,
    createdAtRequirements: ['INF-SCHEMAS-WEBHOOK-DELIVERY'],
  },
  {
    name: 'account',
    sample: once(async () => {
      const exchange = await call('getAccount');
      return { value: expectValid(validateGetAccountResponse200, exchange, 200, 'getAccount'), exchange };
    }),
    idPattern: 'AccountId',
    prefixRequirement: null,
    idRequirement: 'INF-SCHEMAS-IDS-DEFS-ACCOUNTID',
    objectRequirement: null,
    createdAtRequirements: ['INF-SCHEMAS-ACCOUNT'],
  },
];

describe('resources: ids, kinds and timestamps', () => {
  for (const kind of kinds) {
    const pattern = schemaPatterns[kind.idPattern];
    const prefix = /^\^([a-z]+_)/.exec(pattern)?.[1] ?? '';
    restCheck(
      [...(kind.prefixRequirement === null ? [] : [kind.prefixRequirement]), kind.idRequirement],
      `a ${kind.name} id starts with ${prefix} (and matches ${pattern})`,
      async () => {
        const { value, exchange } = await kind.sample();
        expectThat(value.id.startsWith(prefix), `an id starting with ${prefix}`, exchange);
        // The characters after the prefix are the spec's decision.
        if (judgesInferred())
          expectThat(new RegExp(pattern).test(value.id), `an id matching ${pattern}`, exchange);
      },
    );
    const { objectRequirement } = kind;
    if (objectRequirement !== null)
      restCheck(['RES-ID-OBJECT', objectRequirement], `a ${kind.name} names its kind in object`, async () => {
        const { value, exchange } = await kind.sample();
        const expected = documentedValue(objectRequirement);
        expectThat(value.object === expected, `object ${String(expected)}`, exchange);
      });
    if (kind.createdAtRequirements.length > 0)
      restCheck(
        kind.createdAtRequirements,
        `a ${kind.name}’s createdAt is an ISO 8601 UTC timestamp`,
        async () => {
          const { value, exchange } = await kind.sample();
          expectThat(isTimestamp(value.createdAt), 'createdAt in ISO 8601 UTC', exchange);
        },
      );
  }

  restCheck(['RES-EVENT-CREATED'], 'an event’s created is the Unix time in seconds', async () => {
    const { value: event, exchange } = await testEvent();
    const issued = Date.parse(header(exchange, 'date') ?? '') / 1000;
    // Whole seconds, near the moment the answer was dated (the Date header has one-second resolution).
    expectThat(
      Number.isInteger(event.created) && Math.abs(event.created - issued) <= 2,
      'created in Unix seconds, now',
      exchange,
    );
  });

  restCheck(
    [
      'RES-EVENT-TYPE',
      'RES-EVENT-LIVEMODE',
      'RES-EVENT-DATA',
      'INF-SCHEMAS-EVENT-PROPERTIES-LIVEMODE',
      'INF-SCHEMAS-EVENT-WEBHOOK-TEST',
    ],
    'a test event is a webhook.test about its webhook, not live, without the secret',
    async () => {
      const { value: event, exchange } = await testEvent();
      const { webhook } = await webhookForEvents();
      expectThat(
        event.type === 'webhook.test' && event.livemode === false,
        'type webhook.test, livemode false',
        exchange,
      );
      expectThat(event.data.object.id === webhook.id, 'data.object the webhook', exchange);
      expectThat(!('signingSecret' in event.data.object), 'no signingSecret in data.object', exchange);
    },
  );
});

describe('resources: webhooks', () => {
  restCheck(
    ['RES-WEBHOOK-SIGNING-SECRET', 'EP-CREATE-WEBHOOK-SECRET'],
    'signingSecret is in the creation response only: never in get or list',
    async () => {
      const { webhook, exchange } = await createWebhook({
        url: loopbackWebhookUrl,
        events: ['report.generated'],
      });
      expectThat(
        new RegExp(schemaPatterns['CreatedWebhook.signingSecret']).test(webhook.signingSecret),
        'a signingSecret',
        exchange,
      );
      const get = await call('getWebhook', { webhookId: webhook.id });
      expectThat(
        !('signingSecret' in (expectValid(validateGetWebhookResponse200, get, 200, 'getWebhook') as object)),
        'no signingSecret',
        get,
      );
      const list = await call('listWebhooks', {}, { query: { limit: limitBounds().maximum } });
      const item = expectListPage<object & { id: string }>('listWebhooks', list).data.find(
        (entry) => entry.id === webhook.id,
      );
      expectThat(
        item !== undefined && !('signingSecret' in item),
        'the webhook listed without signingSecret',
        list,
      );
    },
  );

  restCheck(
    ['INF-SCHEMAS-WEBHOOK-PROPERTIES-PROPERTIES-STATUS'],
    'a webhook stays active whatever is done with it: rolled secret, test event, read and listed',
    async () => {
      const { webhook } = await createWebhook({ url: loopbackWebhookUrl, events: ['webhook.test'] });
      const answers = [
        await call('rollWebhookSecret', { webhookId: webhook.id }),
        await call('testWebhook', { webhookId: webhook.id }),
        await call('getWebhook', { webhookId: webhook.id }),
      ];
      const rolled = answers[0] as Exchange;
      expectThat(
        (rolled.response.body as { status?: unknown }).status === active,
        `status ${active} after rolling its secret`,
        rolled,
      );
      // Statuses only: the bodies' schemas are judged by the checks that own them.
      const read = answers[2] as Exchange;
      expectThat(
        (read.response.body as { status?: unknown }).status === active,
        `status ${active} after a test event`,
        read,
      );
      const listed = await call('listWebhooks', {}, { query: { limit: limitBounds().maximum } });
      const listedData = (listed.response.body as { data?: Array<{ status?: unknown }> }).data ?? [];
      expectThat(
        listedData.length > 0 && listedData.every((each) => each.status === active),
        `every listed webhook ${active}`,
        listed,
      );
    },
  );

  restCheck(
    [
      'RES-WEBHOOK-STATUS-ACTIVE',
      'STATE-WEBHOOK-ACTIVE',
      'RES-WEBHOOK-URL',
      'RES-WEBHOOK-EVENTS',
      'RES-WEBHOOK-DESCRIPTION',
      'EVT-SUBSCRIBE-EVENTS',
      'INF-SCHEMAS-WEBHOOK-URL',
    ],
    'a new webhook is active, with the url, events and description given (a loopback http url allowed)',
    async () => {
      const events = ['report.generated', 'report.deleted'] as const;
      const { webhook, exchange } = await createWebhook({
        url: loopbackWebhookUrl,
        events: [...events],
        description: 'Conformance described',
      });
      expectThat(webhook.status === active, `status ${active}`, exchange);
      expectThat(webhook.url === loopbackWebhookUrl, 'the url as given', exchange);
      expectThat(
        JSON.stringify([...webhook.events].sort()) === JSON.stringify([...events].sort()),
        'the events as given',
        exchange,
      );
      expectThat(webhook.description === 'Conformance described', 'the description as given', exchange);
    },
  );

  restCheck(
    ['INF-SCHEMAS-WEBHOOK-PROPERTIES-PROPERTIES-DESCRIPTION'],
    'a webhook created without description has description null',
    async () => {
      const { webhook, exchange } = await createWebhook({
        url: loopbackWebhookUrl,
        events: ['report.deleted'],
      });
      expectThat(webhook.description === null, 'description null', exchange);
    },
  );
});

/** How long an event may take to show among a webhook's deliveries: queueing may be asynchronous. */
const deliveryDeadlineMilliseconds = 5000;

/** Polls a webhook's deliveries until one of the event type shows up, or the deadline passes; the last answer. */
async function awaitDelivery(
  webhookId: string,
  eventType: EventType,
): Promise<{ exchange: Exchange; found: boolean }> {
  const deadline = Date.now() + deliveryDeadlineMilliseconds;
  for (;;) {
    const exchange = await call(
      'listWebhookDeliveries',
      { webhookId },
      { query: { limit: limitBounds().maximum } },
    );
    if (exchange.response.status !== 200) return { exchange, found: false };
    const page = expectListPage<{ eventType: string }>('listWebhookDeliveries', exchange);
    const found = page.data.some((delivery) => delivery.eventType === eventType);
    if (found || Date.now() > deadline) return { exchange, found };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('resources: events queued for webhooks', () => {
  restCheck(
    [
      'STATE-RECORD-PUBLISHED-EVENT',
      'STATE-RECORD-DELETED-EVENT',
      'EVT-SUBSCRIBE-EVENTS',
      'INF-OPENAPI-PATHS-WEBHOOKS-WEBHOOKID-DELIVERIES-GET',
      'INF-SCHEMAS-WEBHOOK-DELIVERY',
    ],
    'publishing a record queues report.generated, deleting it report.deleted, for the webhooks subscribed to them only',
    async () => {
      const generated: EventType = 'report.generated';
      const removed: EventType = 'report.deleted';
      const { webhook: subscribed } = await createWebhook({
        url: loopbackWebhookUrl,
        events: [generated, removed],
      });
      const { webhook: other } = await createWebhook({ url: loopbackWebhookUrl, events: ['webhook.test'] });
      const { report } = await createReport('Conformance events report');
      const { record } = await createRecord(report.id, { samples: [sample(Date.now())] });
      await publishRecord(report.id, record.id);
      const afterPublish = await awaitDelivery(subscribed.id, generated);
      expectThat(
        afterPublish.found,
        `a ${generated} delivery within ${deliveryDeadlineMilliseconds} ms`,
        afterPublish.exchange,
      );
      const deleted = await call('deleteRecord', { reportId: report.id, recordId: record.id });
      expectOperationResponse('deleteRecord', deleted, 200);
      const afterDelete = await awaitDelivery(subscribed.id, removed);
      expectThat(
        afterDelete.found,
        `a ${removed} delivery within ${deliveryDeadlineMilliseconds} ms`,
        afterDelete.exchange,
      );
      const unrelated = await call('listWebhookDeliveries', { webhookId: other.id });
      const page = expectListPage<{ eventType: string }>('listWebhookDeliveries', unrelated);
      expectThat(
        page.data.length === 0,
        'no delivery to a webhook not subscribed to these events',
        unrelated,
      );
    },
  );
});

describe('resources: reports, records and their feed', () => {
  /** A report taken through its life: records uploaded, one published, one deleted, then archived. */
  const lifecycle = once(async () => {
    const { report: created, exchange: createdExchange } = await createReport('Conformance lifecycle report');
    const { record: first, exchange: firstExchange } = await createRecord(created.id, {
      title: 'Conformance published record',
      samples: [sample(Date.now()), sample(Date.now() + 1)],
    });
    const { record: second } = await createRecord(created.id, {
      title: 'Conformance draft record',
      samples: [sample(Date.now())],
    });
    const { record: third } = await createRecord(created.id, { samples: [sample(Date.now())] });
    const afterUploads = await call('getReport', { reportId: created.id });
    const deleted = await call('deleteRecord', { reportId: created.id, recordId: third.id });
    expectOperationResponse('deleteRecord', deleted, 200);
    const afterDelete = await call('getReport', { reportId: created.id });
    const { record: publishedRecord, exchange: publishExchange } = await publishRecord(created.id, first.id);
    const afterPublish = await call('getReport', { reportId: created.id });
    // The feed is read where reportUrl points, without credentials, as a feed reader would.
    const feedPath = pathUnder(currentTarget().baseUrl, created.reportUrl);
    const readFeed = () => (feedPath === null ? null : send('GET', feedPath, { key: null }));
    const feedBeforeArchive = await readFeed();
    const archiving = await call('updateReport', { reportId: created.id }, { body: { status: archived } });
    const feedAfterArchive = await readFeed();
    return {
      created,
      createdExchange,
      first,
      firstExchange,
      second,
      afterUploads,
      afterDelete,
      publishedRecord,
      publishExchange,
      afterPublish,
      feeds:
        feedBeforeArchive === null || feedAfterArchive === null
          ? null
          : [feedBeforeArchive, feedAfterArchive],
      archiving,
    };
  });

  restCheck(
    ['STATE-REPORT-VALUES', 'RES-REPORT-STATUS-ENUM', 'INF-SCHEMAS-REPORT-STATUS-X-TRANSITIONS-0'],
    'a new report is a draft',
    async () => {
      const { created, createdExchange } = await lifecycle();
      expectThat(created.status === draft, `status ${draft}`, createdExchange);
    },
  );

  restCheck(
    ['RES-REPORT-RECORD-COUNT'],
    'recordCount counts the report’s records, draft and published',
    async () => {
      const { created, createdExchange, afterUploads, afterDelete, afterPublish } = await lifecycle();
      expectThat(created.recordCount === 0, 'recordCount 0 when new', createdExchange);
      for (const [exchange, count] of [
        [afterUploads, 3],
        [afterDelete, 2],
        [afterPublish, 2],
      ] as const) {
        const report = expectValid(validateGetReportResponse200, exchange, 200, 'getReport');
        expectThat(report.recordCount === count, `recordCount ${count}`, exchange);
      }
    },
  );

  restCheck(
    ['INF-SCHEMAS-RECORD', 'INF-SCHEMAS-RECORD-STATUS', 'STATE-RECORD-PUBLISHED-EVENT'],
    'an uploaded record is a draft of its samples until published',
    async () => {
      const { first, firstExchange, publishedRecord, publishExchange, created } = await lifecycle();
      expectThat(
        first.status === draft && first.publishedAt === null,
        'a draft with publishedAt null',
        firstExchange,
      );
      expectThat(
        first.source === 'upload' && first.streamId === null,
        'source upload, streamId null',
        firstExchange,
      );
      expectThat(
        first.reportId === created.id && first.sampleCount === first.samples.length,
        'its report and sample count',
        firstExchange,
      );
      expectThat(
        publishedRecord.status === published && isTimestamp(publishedRecord.publishedAt),
        'published with publishedAt',
        publishExchange,
      );
    },
  );

  restCheck(
    ['INF-SCHEMAS-REPORT-STATUS-X-TRANSITIONS-1', 'INF-SCHEMAS-REPORT-STATUS-X-TRANSITIONS-3'],
    'publishing a record publishes its report; archiving a published report archives it',
    async () => {
      const { afterPublish, archiving } = await lifecycle();
      expectThat(
        expectValid(validateGetReportResponse200, afterPublish, 200, 'getReport').status === published,
        `status ${published}`,
        afterPublish,
      );
      expectThat(
        expectValid(validateUpdateReportResponse200, archiving, 200, 'updateReport').status === archived,
        `status ${archived}`,
        archiving,
      );
    },
  );

  restCheck(
    ['INF-OPENAPI-PATHS-REPORTS-REPORTID-FEED-XML-GET-RESPONSES-200'],
    `the feed holds the newest maxFeedItems (${apiPolicies.limits.maxFeedItems}) published records, is publicly cacheable, and answers 304 to its ETag until a record is published`,
    async ({ skip }) => {
      const { report } = await createReport('Conformance bounded feed');
      const feedPath = pathUnder(currentTarget().baseUrl, report.reportUrl);
      if (feedPath === null)
        return skip(
          `reportUrl ${report.reportUrl} is not under {base_url}, the only place the suite reaches`,
        );
      const count = apiPolicies.limits.maxFeedItems + 1;
      const titles = Array.from({ length: count + 1 }, (_, index) => `Conformance feed record ${index + 1}.`);
      const records = await mapConcurrently(
        titles,
        8,
        async (title) => (await createRecord(report.id, { title, samples: [sample(Date.now())] })).record,
      );
      // Published one by one, so "newest" has one meaning whatever the target orders by.
      for (const record of records.slice(0, count)) await publishRecord(report.id, record.id);
      const read = (etag?: string) =>
        send('GET', feedPath, {
          key: null,
          ...(etag === undefined ? {} : { headers: { 'if-none-match': etag } }),
        });
      const full = await read();
      expectOperationResponse('getReportFeed', full, 200);
      const feed = String(full.response.body);
      const items = (feed.match(/<item[\s>]/g) ?? []).length;
      expectThat(
        items === apiPolicies.limits.maxFeedItems,
        `${apiPolicies.limits.maxFeedItems} items, not ${items}`,
        full,
      );
      expectThat(feed.includes(titles[count - 1] as string), 'the newest published record', full);
      expectThat(!feed.includes(titles[0] as string), 'not the oldest, beyond the bound', full);
      const cacheControl = header(full, 'cache-control') ?? '';
      expectThat(
        /\bpublic\b/.test(cacheControl) && /\bmax-age=[1-9]/.test(cacheControl),
        'Cache-Control public with a max-age',
        full,
      );
      const etag = header(full, 'etag');
      expectThat(etag !== undefined && etag !== '', 'an ETag', full);
      const unchanged = await read(etag);
      expectThat(
        unchanged.response.status === 304,
        'status 304 for If-None-Match of the current ETag',
        unchanged,
      );
      expectThat(header(unchanged, 'etag') === etag, 'the same ETag on the 304', unchanged);
      await publishRecord(report.id, (records[count] as { id: string }).id);
      const changed = await read(etag);
      expectOperationResponse('getReportFeed', changed, 200);
      expectThat(header(changed, 'etag') !== etag, 'a new ETag once another record is published', changed);
      expectThat(
        String(changed.response.body).includes(titles[count] as string),
        'the record just published',
        changed,
      );
    },
    // About 110 requests, 51 of them one after another: past the default 30 s on a loaded machine. Time is not what
    // this check judges.
    { timeout: 120_000 },
  );

  restCheck(
    ['RES-REPORT-URL', 'EVT-TYPE-REPORT-GENERATED', 'INF-OPENAPI-PATHS-REPORTS-REPORTID-FEED-XML-GET'],
    'the feed at reportUrl is public and lists the published records only, also once archived',
    async ({ skip }) => {
      const { created, first, second, feeds } = await lifecycle();
      if (feeds === null)
        return skip(
          `reportUrl ${created.reportUrl} is not under {base_url}, the only place the suite reaches`,
        );
      const contentType = routes.getReportFeed.responses['200'].contentType;
      for (const exchange of feeds) {
        expectOperationResponse('getReportFeed', exchange, 200);
        const feed = String(exchange.response.body);
        expectThat(
          (header(exchange, 'content-type') ?? '').startsWith(contentType),
          `Content-Type ${contentType}`,
          exchange,
        );
        expectThat(/<rss[\s>]/.test(feed), 'an RSS document', exchange);
        expectThat(
          (feed.match(/<item[\s>]/g) ?? []).length === 1,
          'one item: the one published record',
          exchange,
        );
        expectThat(
          feed.includes(first.title ?? first.id) && !feed.includes(second.title ?? second.id),
          'the published record’s title, not the draft’s',
          exchange,
        );
      }
    },
  );

  restCheck(['EP-LIST-REPORTS-STATUS-FILTER'], 'status filters the report list', async () => {
    const { created } = await lifecycle();
    const { report: fresh } = await createReport('Conformance filtered draft');
    for (const [status, id] of [
      [archived, created.id],
      [draft, fresh.id],
    ] as const) {
      const exchange = await call('listReports', {}, { query: { status, limit: limitBounds().maximum } });
      const page = expectListPage<{ id: string; status: string }>('listReports', exchange);
      expectThat(
        page.data.every((report) => report.status === status),
        `only ${status} reports`,
        exchange,
      );
      expectThat(
        page.data.some((report) => report.id === id),
        `the ${status} report ${id}`,
        exchange,
      );
    }
  });

  restCheck(['INF-OPENAPI-PATHS-STREAMS-GET-PARAMETERS-3'], 'status filters the stream list', async () => {
    const { stream } = await plainStream();
    const status: StreamStatus | undefined = idle;
    if (status === undefined) throw new Error('no initial stream status in the spec');
    const exchange = await call('listStreams', {}, { query: { status, limit: limitBounds().maximum } });
    const page = expectListPage<{ id: string; status: string }>('listStreams', exchange);
    expectThat(
      page.data.every((item) => item.status === status),
      `only ${status} streams`,
      exchange,
    );
    expectThat(
      page.data.some((item) => item.id === stream.id),
      `the ${status} stream ${stream.id}`,
      exchange,
    );
  });
});

const { maxWebhooksPerAccount } = apiPolicies.limits;
const { cursorParameter, limitParameter } = apiPolicies.pagination;

/** How many webhooks the account has now, counted through the list. */
async function webhookCount(): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const query: Record<string, string | number> = {
      [limitParameter]: limitBounds().maximum,
      ...(cursor === null ? {} : { [cursorParameter]: cursor }),
    };
    const page: ListPage<{ id: string }> = expectListPage<{ id: string }>(
      'listWebhooks',
      await call('listWebhooks', {}, { query }),
    );
    count += page.data.length;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return count;
}

describe('limits: webhooks per account', () => {
  restCheck(
    ['INF-OPENAPI-X-LIMITS', 'INF-SCHEMAS-ERROR-CODE-ONEOF-WEBHOOK_LIMIT_REACHED'],
    `an account holds at most ${maxWebhooksPerAccount} webhooks: one more is refused with webhook_limit_reached`,
    async () => {
      const existing = await webhookCount();
      const made: string[] = [];
      // The account's slots are shared with every other check: they are given back whatever happens here.
      try {
        // Made together: none of them goes past the limit, so the order they land in does not matter.
        const slots = Array.from(
          { length: Math.max(maxWebhooksPerAccount - existing, 0) },
          (_, index) => index,
        );
        const webhooks = await mapConcurrently(slots, 8, (slot) =>
          createWebhook({
            url: loopbackWebhookUrl,
            events: ['webhook.test'],
            description: `Slot ${slot + 1}`,
          }),
        );
        made.push(...webhooks.map(({ webhook }) => webhook.id));
        const refused = await call(
          'createWebhook',
          {},
          { body: { url: loopbackWebhookUrl, events: ['webhook.test'] } },
        );
        expectError(refused, { code: 'webhook_limit_reached' }, 'createWebhook');
        expectThat(
          existing <= maxWebhooksPerAccount,
          `no more than ${maxWebhooksPerAccount} webhooks before this check (found ${existing})`,
          refused,
        );
      } finally {
        const deleted = await mapConcurrently(made, 8, (webhookId) => deleteWebhook(webhookId));
        for (const exchange of deleted) expectOperationResponse('deleteWebhook', exchange, 200);
      }
      // A deleted webhook frees its slot.
      const { webhook } = await createWebhook({ url: loopbackWebhookUrl, events: ['webhook.test'] });
      expectOperationResponse('deleteWebhook', await deleteWebhook(webhook.id), 200);
    },
  );
});

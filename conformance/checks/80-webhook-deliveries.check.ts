// Webhook deliveries as a receiver gets them: method, headers, body, and the signature verified part by part with
// the generated verifier, on a webhook.test and on report events.
import { beforeAll, describe } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import {
  validateReportDeletedEventPayload,
  validateReportGeneratedEventPayload,
  validateWebhookTestEventPayload,
} from '../../generated/validators/index.js';
import { webhookEventHeader } from '../../generated/webhooks/index.js';
import { type CheckContext, check, expectWith } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { isLowerHexDigest, isUnixSeconds, isWellFormedPart, readSignature } from './support/signature.js';
import { objectOf, type ParsedDelivery, type RegisteredWebhook, useReceiver } from './support/webhooks.js';

const { signature } = apiPolicies.webhookDelivery;
const hooks = useReceiver();
const deliveryWaitMs = 10_000;

interface TestDelivery {
  webhook: RegisteredWebhook;
  requested: Record<string, unknown>;
  delivery: ParsedDelivery | undefined;
}

let testDelivery: Promise<TestDelivery> | null = null;

/** One webhook.test requested and received, shared by the checks of this file. */
function webhookTest(context: CheckContext): Promise<TestDelivery> {
  testDelivery ??= (async () => {
    const webhook = await hooks.register(context, 'test-event');
    const requested = await send('POST', `/webhooks/${webhook.id}/test`);
    expectWith(requested.response.status === 201, 'status 201 for POST /webhooks/{id}/test', requested);
    const [delivery] = await hooks.waitFor(context, webhook, (found) => found.length > 0, deliveryWaitMs);
    return { webhook, requested: requested.response.body as Record<string, unknown>, delivery };
  })();
  return testDelivery;
}

async function received(
  context: CheckContext,
): Promise<{ delivery: ParsedDelivery; webhook: RegisteredWebhook }> {
  hooks.receiver(context);
  const { delivery, webhook } = await webhookTest(context);
  expectWith(delivery !== undefined, 'the webhook.test delivered to the receiver', null);
  context.evidence('delivery', {
    method: delivery.method,
    headers: delivery.headers,
    body: delivery.rawBody.toString('utf8'),
    arrivedAt: new Date(delivery.arrivedAt).toISOString(),
  });
  return { delivery, webhook };
}

interface ReportEvents {
  deliveries: ParsedDelivery[];
  /** The answer to the record's DELETE. */
  deleted: Exchange;
  /** A draft record deleted before it: no report.deleted about it (it was never in the feed). */
  draftId: string;
  /** A webhook of the account not subscribed to report events. */
  other: RegisteredWebhook;
}

let reportEventsRun: Promise<ReportEvents> | null = null;

/**
 * A record published then deleted, seen by a webhook subscribed to report.generated and report.deleted and by one
 * that is not: shared by the checks of this file.
 */
function reportEvents(context: CheckContext): Promise<ReportEvents> {
  reportEventsRun ??= (async () => {
    const subscribed = await hooks.register(context, 'reports', {
      events: ['report.generated', 'report.deleted'],
    });
    const other = await hooks.register(context, 'not-reports', { events: ['webhook.test'] });
    const report = await send('POST', '/reports', { body: { title: 'conformance report events' } });
    const reportId = (report.response.body as { id: string }).id;
    const record = await send('POST', `/reports/${reportId}/records`, {
      body: { samples: [{ ts: Date.now(), values: { rpm: 1 } }] },
    });
    const recordId = (record.response.body as { id: string }).id;
    const draft = await send('POST', `/reports/${reportId}/records`, {
      body: { samples: [{ ts: Date.now(), values: { rpm: 2 } }] },
    });
    const draftId = (draft.response.body as { id: string }).id;
    // Deleted first: deliveries to one webhook go out oldest first, so its event, were there one, comes before the
    // published record's.
    await send('DELETE', `/reports/${reportId}/records/${draftId}`);
    await send('POST', `/reports/${reportId}/records/${recordId}/publish`);
    const deleted = await send('DELETE', `/reports/${reportId}/records/${recordId}`);
    const deliveries = await hooks.waitFor(
      context,
      subscribed,
      (found) => found.some((each) => each.event?.type === 'report.deleted'),
      deliveryWaitMs,
    );
    await send('DELETE', `/reports/${reportId}`);
    context.evidence(
      'events',
      deliveries.map((each) => each.event),
    );
    return { deliveries, deleted, draftId, other };
  })();
  return reportEventsRun;
}

function reportEventsOf(deliveries: readonly ParsedDelivery[]) {
  return {
    generated: deliveries.find((each) => each.event?.type === 'report.generated'),
    gone: deliveries.find((each) => each.event?.type === 'report.deleted'),
  };
}

describe('webhook deliveries', () => {
  beforeAll(() => {
    testDelivery = null;
    reportEventsRun = null;
  });

  check(
    [
      'EVT-DELIVERY-POST',
      'RULE-WEBHOOK-DELIVERY-METHOD',
      'EVT-HEADER-CONTENT-TYPE',
      'EVT-TYPE-WEBHOOK-TEST',
      'INF-SCHEMAS-EVENT-WEBHOOK-TEST',
    ],
    'a requested test event arrives as a POST of the Event as JSON, the event the API returned',
    async (context) => {
      const { delivery } = await received(context);
      const { requested } = await webhookTest(context);
      expectWith(delivery.method === apiPolicies.webhookDelivery.method, 'method POST', delivery.method);
      expectWith(
        /^application\/json(;|$)/.test(delivery.headers['content-type'] ?? ''),
        'Content-Type application/json',
        delivery.headers,
      );
      const valid = validateWebhookTestEventPayload(delivery.event);
      expectWith(valid.ok, 'a valid webhook.test event (livemode false)', valid);
      expectWith(delivery.event?.id === requested.id, 'the event POST /webhooks/{id}/test returned', {
        delivered: delivery.event,
        requested,
      });
    },
  );

  check(
    ['EVT-HEADER-EVENT', 'RULE-WEBHOOK-DELIVERY-SIGNATURE-EVENT-HEADER'],
    `${webhookEventHeader} names the event's type`,
    async (context) => {
      const { delivery } = await received(context);
      const named = delivery.headers[webhookEventHeader.toLowerCase()];
      expectWith(
        named !== undefined && named === delivery.event?.type,
        `${webhookEventHeader}: ${String(delivery.event?.type)}`,
        delivery.headers,
      );
    },
  );

  check(
    [
      'EVT-HEADER-SIGNATURE',
      'EVT-SIGNATURE-SPLIT',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-HEADER',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-FORMAT',
      'INF-SCHEMAS-WEBHOOK-DELIVERY-HEADERS-PROPERTIES-SERVICE-SIGNATURE',
      'RULE-WEBHOOK-DELIVERY-VERIFICATION-DUPLICATE-TIMESTAMP',
      'RULE-WEBHOOK-DELIVERY-VERIFICATION-UNKNOWN-SCHEMES',
      'RULE-WEBHOOK-DELIVERY-VERIFICATION-HEX-CASE',
    ],
    `${signature.header}: ${signature.format}, one t, lowercase hex v1, any other part a well-formed scheme`,
    async (context) => {
      const { delivery, webhook } = await received(context);
      const reading = readSignature(delivery, webhook.signingSecret, delivery.arrivedAt / 1000);
      context.evidence('signature header', reading);
      expectWith(reading.header !== undefined, `a ${signature.header} header`, delivery.headers);
      expectWith(reading.timestamps.length === 1, 'exactly one t', reading);
      expectWith(isUnixSeconds(reading.timestamps[0] ?? ''), 't in Unix seconds', reading);
      expectWith(reading.v1.length >= 1, 'at least one v1', reading);
      expectWith(reading.v1.every(isLowerHexDigest), 'every v1 a lowercase hex HMAC-SHA256 digest', reading);
      expectWith(
        reading.others.every(isWellFormedPart),
        'other parts name=value schemes a receiver can skip',
        reading,
      );
    },
  );

  check(
    [
      'AUTH-WEBHOOK-SIGNATURE',
      'EVT-SIGNATURE-PAYLOAD',
      'EVT-SIGNATURE-HMAC',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-ALGORITHM',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-SIGNED-PAYLOAD',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-DIGEST',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-COMPARISON',
      'RULE-WEBHOOK-DELIVERY-VERIFICATION-KEY',
      'RULE-WEBHOOK-DELIVERY-VERIFICATION-MULTIPLE-V1',
    ],
    'the generated verifier accepts the delivery with the signingSecret: HMAC-SHA256 of <t>.<raw body>, one v1 matches',
    async (context) => {
      const { delivery, webhook } = await received(context);
      // Verified at the signed time: this check is about the signature; the next one about the time.
      const signedAt = Number(readSignature(delivery, webhook.signingSecret, 0).timestamps[0]);
      const reading = readSignature(delivery, webhook.signingSecret, signedAt);
      context.evidence('verification', reading);
      expectWith(reading.verifierError === null, 'the generated verifier to accept the delivery', reading);
    },
  );

  check(
    ['EVT-SIGNATURE-TOLERANCE', 'LIM-WEBHOOK-TOLERANCE', 'RULE-WEBHOOK-DELIVERY-SIGNATURE-TOLERANCE-SECONDS'],
    `t is the time of sending: within the tolerance of ${signature.toleranceSeconds} s of the delivery's arrival`,
    async (context) => {
      const { delivery, webhook } = await received(context);
      const reading = readSignature(delivery, webhook.signingSecret, delivery.arrivedAt / 1000);
      const skew = Number(reading.timestamps[0]) - delivery.arrivedAt / 1000;
      context.evidence('timestamp', { t: reading.timestamps[0], arrivedAt: delivery.arrivedAt / 1000, skew });
      // The time alone: whether the bytes verify is the signature check's business.
      expectWith(
        Math.abs(skew) <= signature.toleranceSeconds,
        `t within ${signature.toleranceSeconds} s of the arrival, not ${skew.toFixed(1)} s off`,
        reading,
      );
    },
  );

  check(
    [
      'EVT-TYPE-REPORT-GENERATED',
      'EVT-TYPE-REPORT-DELETED',
      'INF-SCHEMAS-EVENT-REPORT-GENERATED',
      'INF-SCHEMAS-EVENT-REPORT-DELETED',
      'STATE-RECORD-DELETED-EVENT',
      'EVT-SUBSCRIBE-EVENTS',
    ],
    'publishing a record sends report.generated, deleting it report.deleted (a deleted draft sends none), only to webhooks subscribed to them',
    async (context) => {
      const { deliveries, deleted, draftId, other } = await reportEvents(context);
      const { generated, gone } = reportEventsOf(deliveries);
      const aboutDraft = deliveries.filter(
        (each) => each.event?.type === 'report.deleted' && objectOf(each).id === draftId,
      );
      expectWith(
        aboutDraft.length === 0,
        `no report.deleted for the draft record ${draftId}, deleted unpublished`,
        aboutDraft.map((each) => each.event),
      );
      expectWith(
        generated !== undefined,
        'report.generated delivered',
        deliveries.map((each) => each.event),
      );
      expectWith(
        validateReportGeneratedEventPayload(generated?.event).ok,
        'a valid report.generated',
        generated?.event,
      );
      expectWith(deleted.response.status === 200 && gone !== undefined, 'report.deleted delivered', deleted);
      expectWith(validateReportDeletedEventPayload(gone?.event).ok, 'a valid report.deleted', gone?.event);
      expectWith(
        hooks.deliveries(context, other).length === 0,
        'nothing for a webhook not subscribed to them',
        null,
      );
    },
  );

  check(
    ['INF-SCHEMAS-EVENT-PROPERTIES-LIVEMODE'],
    'events other than webhook.test are live: report.generated and report.deleted carry livemode true',
    async (context) => {
      const { generated, gone } = reportEventsOf((await reportEvents(context)).deliveries);
      expectWith(
        generated?.event?.livemode === true && gone?.event?.livemode === true,
        'livemode true in both (only a requested test event is not live)',
        [generated?.event, gone?.event],
      );
    },
  );

  check(
    ['EVT-TYPE-REPORT-DELETED', 'EVT-SUBSCRIBE-EVENTS'],
    "deleting a report sends report.deleted for its published record, none for its draft, and leaves another report's records",
    async (context) => {
      const webhook = await hooks.register(context, 'report-deletion', { events: ['report.deleted'] });
      const created = async (path: string, body: Record<string, unknown>) => {
        const exchange = await send('POST', path, { body });
        expectWith(exchange.response.status === 201, `status 201 for POST ${path}`, exchange);
        return (exchange.response.body as { id: string }).id;
      };
      const samples = [{ ts: Date.now(), values: { rpm: 1 } }];
      const reportId = await created('/reports', { title: 'conformance report deletion' });
      const keptReportId = await created('/reports', { title: 'conformance report kept' });
      const publishedId = await created(`/reports/${reportId}/records`, { samples });
      await send('POST', `/reports/${reportId}/records/${publishedId}/publish`);
      const draftId = await created(`/reports/${reportId}/records`, { samples });
      const keptId = await created(`/reports/${keptReportId}/records`, { samples });
      const deleted = await send('DELETE', `/reports/${reportId}`);
      expectWith(deleted.response.status === 200, 'status 200 for the report DELETE', deleted);
      const aboutReport = (found: ParsedDelivery[]) =>
        found.filter((each) => each.event?.type === 'report.deleted' && objectOf(each).reportId === reportId);
      await hooks.waitFor(context, webhook, (found) => aboutReport(found).length > 0, deliveryWaitMs);
      // A draft's event would be queued in the same transaction: a short grace for it to arrive too.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const records = aboutReport(hooks.deliveries(context, webhook)).map((each) => objectOf(each).id);
      context.evidence('report.deleted about the report', records);
      expectWith(
        records.length === 1 && records[0] === publishedId,
        `one report.deleted, about the published record ${publishedId} (not the draft ${draftId})`,
        records,
      );
      const kept = await send('GET', `/reports/${keptReportId}/records/${keptId}`);
      expectWith(kept.response.status === 200, "another report's record still there", kept);
      await send('DELETE', `/reports/${keptReportId}`);
    },
  );

  check(
    ['RULE-WEBHOOK-DELIVERY-ORDERING-PER-WEBHOOK'],
    'first attempts go out oldest first, and a failing delivery does not hold back a later one',
    async (context) => {
      const webhook = await hooks.register(context, 'ordering', {
        events: ['webhook.test'],
        behaviour: (attempt) => ({ status: attempt === 1 ? 500 : 200 }),
      });
      const first = await send('POST', `/webhooks/${webhook.id}/test`);
      const second = await send('POST', `/webhooks/${webhook.id}/test`);
      const deliveries = await hooks.waitFor(context, webhook, (found) => found.length >= 2, deliveryWaitMs);
      context.evidence(
        'attempts',
        deliveries.map((each) => ({ at: each.arrivedAt, answer: each.answer, id: each.event?.id })),
      );
      const ids = deliveries.map((each) => each.event?.id);
      const requested = [first, second].map((each) => (each.response.body as { id?: unknown }).id);
      expectWith(
        JSON.stringify(ids.slice(0, 2)) === JSON.stringify(requested),
        'the first event first, then the second although the first failed',
        { ids, requested },
      );
    },
  );

  check(
    [
      'RULE-WEBHOOK-DELIVERY-TARGETS-REFUSED',
      'RULE-WEBHOOK-DELIVERY-TARGETS-LOCAL-TESTING',
      'INF-SCHEMAS-ERROR-CODE-ONEOF-WEBHOOK_URL_FORBIDDEN',
    ],
    'a webhook at a link-local address (cloud metadata) is refused with webhook_url_forbidden, local testing or not',
    async (context) => {
      const created = await send('POST', '/webhooks', {
        body: { url: 'https://169.254.169.254/latest/meta-data', events: ['webhook.test'] },
      });
      context.evidence('answer', created.response);
      const body = created.response.body as { id?: string; error?: { code?: string; param?: string } };
      if (created.response.status === 201 && body.id !== undefined)
        await send('DELETE', `/webhooks/${body.id}`);
      expectWith(created.response.status === 400, 'status 400', created);
      expectWith(
        body.error?.code === 'webhook_url_forbidden' && body.error.param === 'url',
        'webhook_url_forbidden on url',
        created,
      );
    },
  );

  check(
    ['RULE-WEBHOOK-DELIVERY-TARGETS-USER-INFO', 'INF-SCHEMAS-ERROR-CODE-ONEOF-WEBHOOK_URL_FORBIDDEN'],
    'a webhook url with user information (user:password@, user@, :password@) is refused with webhook_url_forbidden',
    async (context) => {
      // A name under .invalid never resolves (RFC 6761): nothing but the user information can refuse these.
      for (const url of [
        'https://conformance:secret@hooks.example.invalid/telemetry',
        'https://conformance@hooks.example.invalid/telemetry',
        'https://:secret@hooks.example.invalid/telemetry',
      ]) {
        const created = await send('POST', '/webhooks', { body: { url, events: ['webhook.test'] } });
        context.evidence(url, created.response);
        const body = created.response.body as { id?: string; error?: { code?: string; param?: string } };
        if (created.response.status === 201 && body.id !== undefined)
          await send('DELETE', `/webhooks/${body.id}`);
        expectWith(
          created.response.status === 400 &&
            body.error?.code === 'webhook_url_forbidden' &&
            body.error.param === 'url',
          `${url}: 400 webhook_url_forbidden on url`,
          created,
        );
      }
    },
  );
});

// Isolation as a matrix (issue 13, family 4): every operation that takes an id, given the ids of another account's
// objects (streams, reports, records, webhooks, deliveries), under an API key and under an OAuth token, answers
// exactly as for an id that names nothing; references to another account's objects inside a body, and ids of one
// parent used under another, too. The owner then reads everything back unchanged. The other account is the free
// one: it makes a few objects (a handful of its requests), the paid account's keys do the probing.
import { afterAll, describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { errorRoles } from '../../generated/types/errors.js';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import type { Record as RecordObject, Report, Stream, Webhook } from '../../generated/types/schemas.js';
import { expectThat } from '../harness/check.js';
import type { Exchange } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { spareSecretKey } from './support/auth-keys.js';
import { oauthMeans, obtainTokens } from './support/auth-oauth.js';
import { restCheck } from './support/rest-check.js';
import {
  createRecord,
  createReport,
  createStream,
  loopbackWebhookUrl,
  mapConcurrently,
  once,
  sample,
} from './support/rest-fixtures.js';
import {
  call,
  errorShape,
  expectError,
  expectListPage,
  expectOperationResponse,
  missingId,
  type OperationId,
  type PathParameters,
  pathParameterNames,
  restOperations,
} from './support/rest-http.js';

/** Several sequential requests each: room for a loaded machine, far beyond what they take on a quiet one. */
const slowMachine = { timeout: 60_000 };

const missingCode = errorRoles.resourceMissing;
const noFreeKey = 'the target names no key of a second (free) account (--free-key)';
const requirements = ['ERR-404', 'INF-SCHEMAS-ERROR-CODE-ONEOF-RESOURCE_MISSING'];

/** A body each operation accepts from its owner; the probes must fail before it matters. */
const bodies: Partial<Record<OperationId, unknown>> = {
  createRecord: { samples: [sample(1_700_000_000_000)] },
  updateStream: { title: 'Taken over' },
  updateReport: { title: 'Taken over' },
  updateRecord: { title: 'Taken over' },
};

/** Operations on one object of the caller's account, by id: read, write, delete; deletions last. */
const byId = restOperations
  .filter(
    (operationId) => pathParameterNames(operationId).length > 0 && routes[operationId].security.length > 0,
  )
  .sort((a, b) => Number(a.startsWith('delete')) - Number(b.startsWith('delete')));

interface Owned {
  key: string;
  ids: Required<Record<'streamId' | 'reportId' | 'recordId' | 'webhookId' | 'deliveryId', string>>;
  titles: { stream: string; report: string };
}

function created<T>(exchange: Exchange, operationId: OperationId, status = 201): T {
  return expectOperationResponse(operationId, exchange, status) as T;
}

/** The free account's objects: a stream, a report with a draft record, a webhook with one delivery. */
const freeObjects = once(async (): Promise<Owned | null> => {
  const key = currentTarget().keys.freeSecret;
  if (key === null) return null;
  const titles = { stream: 'Conformance matrix stream', report: 'Conformance matrix report' };
  const stream = created<Stream>(
    await call('createStream', {}, { key, body: { title: titles.stream } }),
    'createStream',
  );
  const report = created<Report>(
    await call('createReport', {}, { key, body: { title: titles.report } }),
    'createReport',
  );
  const record = created<RecordObject>(
    await call('createRecord', { reportId: report.id }, { key, body: bodies.createRecord }),
    'createRecord',
  );
  const webhook = created<Webhook>(
    await call('createWebhook', {}, { key, body: { url: loopbackWebhookUrl, events: ['webhook.test'] } }),
    'createWebhook',
  );
  created(await call('testWebhook', { webhookId: webhook.id }, { key }), 'testWebhook');
  const deliveries = await call('listWebhookDeliveries', { webhookId: webhook.id }, { key });
  const [delivery] = expectListPage<{ id: string }>('listWebhookDeliveries', deliveries).data;
  expectThat(delivery !== undefined, 'the test delivery listed', deliveries);
  const ids = {
    streamId: stream.id,
    reportId: report.id,
    recordId: record.id,
    webhookId: webhook.id,
    deliveryId: delivery.id,
  };
  return { key, ids, titles };
});

/** Every operation by id with the other account's ids, each compared with the same call for a missing id. */
async function probeMatrix(owned: Owned, credential: string): Promise<void> {
  const outcomes = await mapConcurrently(byId, 4, async (operationId) => {
    const [first = ''] = pathParameterNames(operationId);
    const options = {
      key: credential,
      ...(bodies[operationId] === undefined ? {} : { body: bodies[operationId] }),
    };
    const foreign = await call(operationId, owned.ids as PathParameters, options);
    const missing = await call(operationId, { ...owned.ids, [first]: missingId(first) }, options);
    return { operationId, first, foreign, missing };
  });
  for (const { operationId, first, foreign, missing } of outcomes) {
    expectError(foreign, { code: missingCode, param: first }, operationId);
    expectThat(
      errorShape(foreign) === errorShape(missing),
      `${operationId}: the same status, type, code and param as for a missing ${first} (${errorShape(missing)})`,
      foreign,
    );
  }
}

/** The owner reads its objects back: all there, as they were. */
async function expectUnchanged(owned: Owned): Promise<void> {
  const { key, ids, titles } = owned;
  const stream = await call('getStream', ids, { key });
  expectThat(
    created<Stream>(stream, 'getStream', 200).title === titles.stream,
    'the stream unchanged',
    stream,
  );
  const report = await call('getReport', ids, { key });
  const readReport = created<Report>(report, 'getReport', 200);
  expectThat(
    readReport.title === titles.report && readReport.status === 'draft' && readReport.recordCount === 1,
    'the report unchanged: its title, draft, one record',
    report,
  );
  const record = await call('getRecord', ids, { key });
  expectThat(
    created<RecordObject>(record, 'getRecord', 200).status === 'draft',
    'the record still a draft',
    record,
  );
  const webhook = await call('getWebhook', ids, { key });
  created(webhook, 'getWebhook', 200);
  const deliveries = await call('listWebhookDeliveries', ids, { key });
  expectThat(
    expectListPage('listWebhookDeliveries', deliveries).data.length === 1,
    'the webhook’s one delivery, no test event of another account added',
    deliveries,
  );
}

describe('isolation matrix: another account’s ids under every operation', () => {
  // The free account's webhook counts against its limit: gone when the file is done.
  afterAll(async () => {
    const owned = await freeObjects().catch(() => null);
    if (owned !== null) await call('deleteWebhook', owned.ids, { key: owned.key });
  });

  restCheck(
    requirements,
    'with an API key: every operation by id answers another account’s ids as missing ones; the owner sees nothing changed',
    async ({ skip }) => {
      const owned = await freeObjects();
      const probe = spareSecretKey();
      if (owned === null || probe === null) return skip(noFreeKey);
      await probeMatrix(owned, probe);
      await expectUnchanged(owned);
    },
    slowMachine,
  );

  restCheck(
    requirements,
    'with an OAuth access token of every scope: the same, for the token’s account',
    async ({ skip }) => {
      const owned = await freeObjects();
      const means = oauthMeans();
      if (owned === null) return skip(noFreeKey);
      if (typeof means === 'string') return skip(means);
      const tokens = await obtainTokens(means, Object.keys(securitySchemeFacts.OAuth2.scopes).join(' '));
      await probeMatrix(owned, tokens.access_token);
      await expectUnchanged(owned);
    },
    slowMachine,
  );

  restCheck(
    requirements,
    'references inside a body or a path: another account’s report to record into, a record or delivery under another parent',
    async ({ skip }) => {
      const owned = await freeObjects();
      if (owned === null) return skip(noFreeKey);
      const foreignReport = owned.ids.reportId;
      const into = await call(
        'createStream',
        {},
        { body: { title: 'Conformance recorder', recordingReportId: foreignReport } },
      );
      expectError(into, { code: missingCode, param: 'recordingReportId' }, 'createStream');
      const { stream } = await createStream({ title: 'Conformance recorder' });
      const moved = await call(
        'updateStream',
        { streamId: stream.id },
        { body: { recordingReportId: foreignReport } },
      );
      expectError(moved, { code: missingCode, param: 'recordingReportId' }, 'updateStream');
      const { report: mine } = await createReport('Conformance parent A');
      const { report: sibling } = await createReport('Conformance parent B');
      const { record } = await createRecord(sibling.id, { samples: [sample(1_700_000_000_000)] });
      const crossed = await call('getRecord', { reportId: mine.id, recordId: record.id });
      expectError(crossed, { code: missingCode, param: 'recordId' }, 'getRecord');
      const publishCrossed = await call('publishRecord', { reportId: mine.id, recordId: record.id });
      expectError(publishCrossed, { code: missingCode, param: 'recordId' }, 'publishRecord');
      const reread = await call('getRecord', { reportId: sibling.id, recordId: record.id });
      expectThat(
        created<RecordObject>(reread, 'getRecord', 200).status === 'draft',
        'the record still a draft',
        reread,
      );
      await expectUnchanged(owned);
    },
    slowMachine,
  );
});

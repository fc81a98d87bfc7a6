// Values other than the defaults, and values exactly at their limits (issue 13, families 1 and 2): each is sent, then
// read back through another operation (GET, the list), so a service that echoes the request but stores something
// else, or stores a field it was not given, fails. Every check makes the objects it reads.
import { describe } from 'vitest';
import { eventTypeMembers, qualityMembers } from '../../generated/types/facts.js';
import type { EventType, Stream } from '../../generated/types/schemas.js';
import { expectThat } from '../harness/check.js';
import type { Exchange } from '../harness/probe.js';
import { restCheck } from './support/rest-check.js';
import {
  createRecord,
  createReport,
  createStream,
  createWebhook,
  deleteWebhooksAfterAll,
  loopbackWebhookUrl,
  sample,
} from './support/rest-fixtures.js';
import { call, expectListPage, expectOperationResponse } from './support/rest-http.js';
import { limitBounds, ResolvedSchema } from './support/rest-spec.js';

/** Several sequential requests each: room for a loaded machine, far beyond what they take on a quiet one. */
const slowMachine = { timeout: 60_000 };

deleteWebhooksAfterAll();

const qualities = Object.keys(qualityMembers) as Array<Stream['quality']>;
const formats = (ResolvedSchema.at('schemas/format.yaml').members ?? []) as Array<Stream['format']>;
const title = ResolvedSchema.at('schemas/common.yaml', ['$defs', 'Title']);
const metadata = ResolvedSchema.at('schemas/common.yaml', ['$defs', 'Metadata']);

function bound(schema: ResolvedSchema | undefined, keyword: string): number {
  const value = schema?.number(keyword);
  if (value === undefined) throw new Error(`the spec gives no ${keyword} here`);
  return value;
}

/** A string of exactly `length` characters, two-byte ones among them: a limit counted in bytes refuses it. */
function textOf(length: number, seed: string): string {
  return `${seed}é`.repeat(length).slice(0, length);
}

/** JSON with object keys sorted: metadata is a map, its key order is no promise. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, each: unknown) =>
    each !== null && typeof each === 'object' && !Array.isArray(each)
      ? Object.fromEntries(Object.entries(each).sort(([a], [b]) => (a < b ? -1 : 1)))
      : each,
  );
}

/** The fields of `expected` as they are in `actual` (deep equality, key order aside). */
function keeps(actual: unknown, expected: Record<string, unknown>): boolean {
  const object = (actual ?? {}) as Record<string, unknown>;
  return Object.entries(expected).every(([name, value]) => canonical(object[name]) === canonical(value));
}

async function readStream(streamId: string): Promise<{ stream: Stream; exchange: Exchange }> {
  const exchange = await call('getStream', { streamId });
  return { stream: expectOperationResponse('getStream', exchange, 200) as Stream, exchange };
}

describe('values other than the defaults, read back', () => {
  restCheck(
    ['RES-STREAM-QUALITY-ENUM', 'RES-STREAM-FORMAT-ENUM', 'EP-CREATE-STREAM-201'],
    'every quality and every format given at creation is kept: in the 201, when read, and in the list',
    async () => {
      expectThat(qualities.length > 1 && formats.length > 1, 'the spec’s quality and format members');
      const count = Math.max(qualities.length, formats.length);
      const created: Stream[] = [];
      for (let index = 0; index < count; index += 1) {
        const given = {
          title: `Conformance values ${index}`,
          quality: qualities[(index + 1) % qualities.length] as Stream['quality'],
          format: formats[(index + 1) % formats.length] as Stream['format'],
          metadata: { index: String(index) },
        };
        const { stream, exchange } = await createStream(given);
        expectThat(keeps(stream, given), `the stream as given: ${JSON.stringify(given)}`, exchange);
        const read = await readStream(stream.id);
        expectThat(
          keeps(read.stream, given),
          `the same values when read: ${JSON.stringify(given)}`,
          read.exchange,
        );
        created.push(stream);
      }
      const listed = await call('listStreams', {}, { query: { limit: limitBounds().maximum } });
      const page = expectListPage<Stream>('listStreams', listed);
      for (const stream of created) {
        const item = page.data.find((each) => each.id === stream.id);
        expectThat(
          item !== undefined && keeps(item, { quality: stream.quality, format: stream.format }),
          `${stream.id} listed with quality ${stream.quality} and format ${stream.format}`,
          listed,
        );
      }
    },
    slowMachine,
  );

  restCheck(
    ['RES-WEBHOOK-EVENTS', 'RES-WEBHOOK-DESCRIPTION', 'EVT-SUBSCRIBE-EVENTS'],
    'a webhook subscribed to every event type, with a description, is read back and listed with them all',
    async () => {
      const events = Object.keys(eventTypeMembers) as EventType[];
      const given = { url: loopbackWebhookUrl, events, description: 'Conformance: every event type' };
      const { webhook, exchange } = await createWebhook(given);
      expectThat(
        keeps(webhook, { events, description: given.description }),
        'the events and description',
        exchange,
      );
      const read = await call('getWebhook', { webhookId: webhook.id });
      const got = expectOperationResponse('getWebhook', read, 200);
      expectThat(keeps(got, { events, description: given.description }), 'the same when read', read);
      const listed = await call('listWebhooks', {}, { query: { limit: limitBounds().maximum } });
      const item = expectListPage<{ id: string }>('listWebhooks', listed).data.find(
        (each) => each.id === webhook.id,
      );
      expectThat(keeps(item, { events, description: given.description }), 'the same in the list', listed);
    },
    slowMachine,
  );
});

describe('values exactly at their limits, kept intact', () => {
  restCheck(
    ['RES-STREAM-TITLE-MAX', 'EP-CREATE-STREAM-TITLE-REQUIRED', 'EP-CREATE-STREAM-METADATA-LIMITS'],
    'a title of the longest length and metadata with the most keys, each value of the longest length, are kept as given',
    async () => {
      const valueLength = bound(metadata.child('additionalProperties'), 'maxLength');
      const keyLength = bound(metadata.child('propertyNames'), 'maxLength');
      const longest = {
        title: textOf(bound(title, 'maxLength'), 'T'),
        metadata: Object.fromEntries(
          Array.from({ length: bound(metadata, 'maxProperties') }, (_, index) => [
            `${index}`.padStart(keyLength, 'k'),
            textOf(valueLength, String.fromCharCode(97 + index)),
          ]),
        ),
      };
      const { stream, exchange } = await createStream(longest);
      expectThat(keeps(stream, longest), 'the longest title and the fullest metadata as given', exchange);
      const read = await readStream(stream.id);
      expectThat(keeps(read.stream, longest), 'the same when read', read.exchange);
      const { report } = await createReport(longest.title);
      const reread = await call('getReport', { reportId: report.id });
      const got = expectOperationResponse('getReport', reread, 200);
      expectThat(keeps(got, { title: longest.title }), 'a report title of the longest length kept', reread);
    },
    slowMachine,
  );
});

describe('an update changes only what it names', () => {
  restCheck(
    ['INF-SCHEMAS-UPDATE-STREAM-REQUEST', 'EP-STREAMS-NAMED'],
    'each field of a stream updated alone leaves every other field as it was when read back',
    async () => {
      const { report } = await createReport('Conformance update target');
      const { stream } = await createStream({
        title: 'Conformance update stream',
        quality: qualities.at(-1) as Stream['quality'],
        format: formats.at(-1) as Stream['format'],
        metadata: { kept: 'yes' },
        recordingReportId: report.id,
      });
      const changes: Array<Record<string, unknown>> = [
        { title: 'Conformance updated title' },
        { quality: qualities[0] },
        { format: formats[0] },
        { metadata: { replaced: 'yes' } },
        { recordingReportId: null },
      ];
      let expected: Record<string, unknown> = {
        title: stream.title,
        quality: stream.quality,
        format: stream.format,
        metadata: stream.metadata,
        recordingReportId: stream.recordingReportId,
        region: stream.region,
      };
      for (const change of changes) {
        const update = await call('updateStream', { streamId: stream.id }, { body: change });
        expectOperationResponse('updateStream', update, 200);
        expected = { ...expected, ...change };
        const read = await readStream(stream.id);
        expectThat(
          keeps(read.stream, expected),
          `after ${JSON.stringify(change)}: ${JSON.stringify(expected)}`,
          read.exchange,
        );
      }
    },
    slowMachine,
  );

  restCheck(
    ['INF-SCHEMAS-UPDATE-REPORT-REQUEST', 'INF-SCHEMAS-UPDATE-RECORD-REQUEST'],
    'a report’s title or status, and a record’s title or samples, updated alone leave the rest as it was',
    async () => {
      const { report } = await createReport('Conformance report before');
      const { record } = await createRecord(report.id, { samples: [sample(1_700_000_000_000, 7)] });
      const renamed = await call(
        'updateRecord',
        { reportId: report.id, recordId: record.id },
        { body: { title: 'Renamed' } },
      );
      expectOperationResponse('updateRecord', renamed, 200);
      const resampled = await call(
        'updateRecord',
        { reportId: report.id, recordId: record.id },
        { body: { samples: [sample(1_700_000_000_001, 8)] } },
      );
      expectOperationResponse('updateRecord', resampled, 200);
      const recordRead = await call('getRecord', { reportId: report.id, recordId: record.id });
      expectThat(
        keeps(expectOperationResponse('getRecord', recordRead, 200), {
          title: 'Renamed',
          samples: [sample(1_700_000_000_001, 8)],
          status: record.status,
        }),
        'the record with its new title and samples, still a draft',
        recordRead,
      );
      const titled = await call(
        'updateReport',
        { reportId: report.id },
        { body: { title: 'Conformance report after' } },
      );
      expectOperationResponse('updateReport', titled, 200);
      const archived = await call('updateReport', { reportId: report.id }, { body: { status: 'archived' } });
      expectOperationResponse('updateReport', archived, 200);
      const reportRead = await call('getReport', { reportId: report.id });
      expectThat(
        keeps(expectOperationResponse('getReport', reportRead, 200), {
          title: 'Conformance report after',
          status: 'archived',
          recordCount: 1,
        }),
        'the report archived, with its new title and its one record',
        reportRead,
      );
    },
    slowMachine,
  );
});

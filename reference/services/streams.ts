import { parameterDefaults, schemaDefaults, schemaPatterns } from '../../generated/types/facts.js';
import type {
  CreateStreamRequestBody,
  ListStreamsParameters,
  UpdateStreamRequestBody,
} from '../../generated/types/operations.js';
import type { CreatedStream, Stream, StreamList } from '../../generated/types/schemas.js';
import { digest } from '../auth/secrets.js';
import { isoTime } from '../clock.js';
import { problem } from '../problems.js';
import { randomMatching } from '../random-token.js';
import type { StreamRow } from '../storage/rows.js';
import type { ServiceContext } from './context.js';
import { found } from './found.js';
import { newId } from './ids.js';
import { listEnvelope, pageRequest } from './pagination.js';
import { noStreamLifecycle, type StreamLifecycle } from './stream-lifecycle.js';
import { liveFeedUrl, mqttTopicUrl } from './urls.js';

export function streamObject(context: Pick<ServiceContext, 'urls'>, row: StreamRow): Stream {
  return {
    id: row.id,
    object: 'stream',
    title: row.title,
    status: row.status as Stream['status'],
    quality: row.quality as Stream['quality'],
    format: row.format as Stream['format'],
    region: row.region,
    mqttTopic: mqttTopicUrl(context.urls, row.id),
    wsUrl: liveFeedUrl(context.urls, row.id),
    subscriberCount: row.subscriberCount,
    createdAt: row.createdAt,
    metadata: row.metadata,
    startedAt: row.startedAt,
    recordingReportId: row.recordingReportId,
  };
}

/**
 * The stream with its key, shown once. The key is added to the stream's literal rather than spread into a new
 * object: V8 builds `{ ...object, key }` as a slow dictionary-mode copy, which the response serializer then reads
 * slowly too (issue 16: together about 15 µs of a POST's CPU). The schema's serializer writes it: marked `wireShaped`
 * and written by JSON.stringify, it cost the reference 3-5 µs more CPU per POST (ADR 0022, wave 22).
 */
function createdStreamObject(
  context: Pick<ServiceContext, 'urls'>,
  row: StreamRow,
  streamKey: string,
): CreatedStream {
  const created: Stream & { streamKey?: string } = streamObject(context, row);
  created.streamKey = streamKey;
  return created as CreatedStream;
}

/** The stream's row, or the 404 for it: a missing stream and one deleted during a change are answered alike. */
function streamFound(row: StreamRow | null, streamId: string): StreamRow {
  return found(
    row,
    // Stryker disable next-line StringLiteral: equivalent, the kind only words the free-text message, which stays non-empty without it
    'stream',
    streamId,
    'streamId',
  );
}

export async function requireStream(context: ServiceContext, streamId: string): Promise<StreamRow> {
  return streamFound(await context.store.streams.get(context.accountId, streamId), streamId);
}

/** Called only with a report id: most streams record nothing, and then there is no call and no await (issue 16). */
async function requireReportForRecording(context: ServiceContext, reportId: string): Promise<void> {
  if ((await context.store.reports.get(context.accountId, reportId)) === null) {
    throw problem('resource_missing', `No such report: ${reportId}.`, 'recordingReportId');
  }
}

/** Omitted fields take the spec's defaults; region falls back to the account's default region (documented). */
export async function createStream(
  context: ServiceContext,
  body: CreateStreamRequestBody,
  defaultRegion: string,
): Promise<CreatedStream> {
  if (body.recordingReportId != null) await requireReportForRecording(context, body.recordingReportId);
  const streamKey = randomMatching(schemaPatterns['CreatedStream.streamKey']);
  const row = await context.store.streams.insert({
    id: newId('StreamId'),
    accountId: context.accountId,
    title: body.title,
    status: 'idle',
    quality: body.quality ?? schemaDefaults['CreateStreamRequest.quality'],
    format: body.format ?? schemaDefaults['CreateStreamRequest.format'],
    region: body.region ?? defaultRegion,
    streamKeyHash: digest(streamKey),
    subscriberCount: 0,
    // Stryker disable next-line ObjectLiteral: equivalent, the spec's default metadata is the empty object
    metadata: body.metadata ?? { ...schemaDefaults.Metadata },
    startedAt: null,
    recordingReportId: body.recordingReportId ?? null,
    createdAt: isoTime(context.clock),
  });
  return createdStreamObject(context, row, streamKey);
}

export async function listStreams(
  context: ServiceContext,
  query: NonNullable<ListStreamsParameters['query']>,
): Promise<StreamList> {
  // Stryker disable next-line StringLiteral: equivalent, the generated query validation already fills in the spec's default limit
  const request = pageRequest(query, parameterDefaults['listStreams.limit']);
  const page = await context.store.streams.list(context.accountId, request, { status: query.status });
  return listEnvelope(
    page,
    request,
    (row) => streamObject(context, row),
    (row) => row.id,
  );
}

export async function updateStream(
  context: ServiceContext,
  streamId: string,
  body: UpdateStreamRequestBody,
): Promise<Stream> {
  const current = await requireStream(context, streamId);
  const changesIngest =
    (body.quality !== undefined && body.quality !== current.quality) ||
    (body.format !== undefined && body.format !== current.format);
  if (current.status === 'live' && changesIngest) {
    throw problem(
      'stream_live',
      'Quality and format cannot change while the stream is live.',
      body.quality !== undefined ? 'quality' : 'format',
    );
  }
  if (body.recordingReportId != null) await requireReportForRecording(context, body.recordingReportId);
  const updated = await context.store.streams.update(context.accountId, streamId, body);
  return streamObject(context, streamFound(updated, streamId));
}

/** `lifecycle` hears of the deletion once it is stored, so live subscribers are closed (x-connection-rules). */
export async function deleteStream(
  context: ServiceContext,
  streamId: string,
  lifecycle: StreamLifecycle = noStreamLifecycle,
) {
  const current = await requireStream(context, streamId);
  if (current.status === 'live')
    throw problem('stream_live', 'A live stream cannot be deleted; disconnect its device first.');
  await context.store.streams.delete(context.accountId, streamId);
  lifecycle.streamDeleted(streamId);
  return { id: streamId, object: 'stream' as const, deleted: true as const };
}

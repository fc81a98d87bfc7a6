// Objects the REST checks create through the API itself, each answer validated before it is used.
import { afterAll } from 'vitest';
import type {
  CreateRecordRequestBody,
  CreateStreamRequestBody,
  CreateWebhookRequestBody,
} from '../../../generated/types/operations.js';
import type {
  CreatedStream,
  CreatedWebhook,
  Record as RecordObject,
  Report,
  TelemetrySample,
} from '../../../generated/types/schemas.js';
import {
  validateCreateRecordResponse201,
  validateCreateReportResponse201,
  validateCreateStreamResponse201,
  validateCreateWebhookResponse201,
  validatePublishRecordResponse200,
} from '../../../generated/validators/index.js';
import type { Exchange } from '../../harness/probe.js';
import { call, expectValid } from './rest-http.js';

/**
 * A webhook URL on the target's own loopback where nothing listens (port 9, discard): the WebhookUrl pattern allows
 * plain http on loopback, and deliveries to it fail without reaching anyone.
 */
export const loopbackWebhookUrl = 'http://127.0.0.1:9/conformance-sink';

export function sample(ts: number, value = 1): TelemetrySample {
  return { ts, values: { conformance: value } };
}

export async function createStream(
  body: CreateStreamRequestBody,
): Promise<{ stream: CreatedStream; exchange: Exchange }> {
  const exchange = await call('createStream', {}, { body });
  return { stream: expectValid(validateCreateStreamResponse201, exchange, 201, 'createStream'), exchange };
}

export async function createReport(title: string): Promise<{ report: Report; exchange: Exchange }> {
  const exchange = await call('createReport', {}, { body: { title } });
  return { report: expectValid(validateCreateReportResponse201, exchange, 201, 'createReport'), exchange };
}

export async function createRecord(
  reportId: string,
  body: CreateRecordRequestBody,
): Promise<{ record: RecordObject; exchange: Exchange }> {
  const exchange = await call('createRecord', { reportId }, { body });
  return { record: expectValid(validateCreateRecordResponse201, exchange, 201, 'createRecord'), exchange };
}

export async function publishRecord(
  reportId: string,
  recordId: string,
): Promise<{ record: RecordObject; exchange: Exchange }> {
  const exchange = await call('publishRecord', { reportId, recordId });
  return { record: expectValid(validatePublishRecordResponse200, exchange, 200, 'publishRecord'), exchange };
}

const createdWebhooks = new Set<string>();

/** Creates a webhook that the file deletes when its checks are done (webhooks count against an account limit). */
export async function createWebhook(
  body: CreateWebhookRequestBody,
): Promise<{ webhook: CreatedWebhook; exchange: Exchange }> {
  const exchange = await call('createWebhook', {}, { body });
  const webhook = expectValid(validateCreateWebhookResponse201, exchange, 201, 'createWebhook');
  createdWebhooks.add(webhook.id);
  return { webhook, exchange };
}

export async function deleteWebhook(webhookId: string): Promise<Exchange> {
  const exchange = await call('deleteWebhook', { webhookId });
  if (exchange.response.status === 200) createdWebhooks.delete(webhookId);
  return exchange;
}

/** Registers the file's clean-up: every webhook it created and did not delete is deleted after its checks. */
export function deleteWebhooksAfterAll(): void {
  afterAll(async () => {
    await Promise.all([...createdWebhooks].map((webhookId) => deleteWebhook(webhookId)));
  });
}

/** Runs a computation once and hands every caller the same promise: the checks of a file share their fixtures. */
export function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | null = null;
  return () => {
    result ??= compute();
    return result;
  };
}

/** Maps over items with at most `concurrency` calls in flight, keeping their order. */
export async function mapConcurrently<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  map: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await map(items[index] as Item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** The outcome of one of several independent requests: its value, or what it threw (a failure, or a skip). */
export type Settled<Value> = { ok: true; value: Value } | { ok: false; error: unknown };

export async function settle<Value>(compute: () => Promise<Value>): Promise<Settled<Value>> {
  try {
    return { ok: true, value: await compute() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The value of a settled outcome, or its error thrown again in the check that judges it. */
export function settled<Value>(outcome: Settled<Value> | undefined): Value {
  if (outcome === undefined) throw new Error('no outcome for this probe');
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

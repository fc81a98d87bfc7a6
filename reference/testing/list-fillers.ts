import { apiPolicies, parameterDefaults } from '../../generated/types/facts.js';
import { isoTime } from '../clock.js';
import { newId } from '../services/ids.js';
import { type AccountResources, bodyOf } from './account-resources.js';
import type { ServiceFixture } from './service-fixture.js';

type OperationOf<Key> = Key extends `${infer Id}.${typeof apiPolicies.pagination.limitParameter}`
  ? Id
  : never;

/** The list operations: those with a default page size in the spec. */
export type ListOperationId = OperationOf<keyof typeof parameterDefaults>;

export const listOperationIds = Object.keys(parameterDefaults)
  .filter((key) => key.endsWith(`.${apiPolicies.pagination.limitParameter}`))
  .map((key) => key.slice(0, key.lastIndexOf('.')) as ListOperationId)
  .sort();

/** A list with items in it: the path parameters of the list and the ids of its items in creation order. */
export interface FilledList {
  params: Record<string, string>;
  ids: string[];
}

export interface FillContext {
  fixture: ServiceFixture;
  accountId: string;
  resources: AccountResources;
}

type Filler = (context: FillContext, count: number) => Promise<FilledList>;

async function repeat<Item>(count: number, create: () => Promise<Item>): Promise<Item[]> {
  const items: Item[] = [];
  for (let index = 0; index < count; index += 1) items.push(await create());
  return items;
}

/** Fills each list through the API, except webhooks: an account may have too few of those for a walk of pages. */
export const listFillers: Record<ListOperationId, Filler> = {
  listStreams: async ({ resources }, count) => ({
    params: {},
    ids: (await repeat(count, () => resources.stream())).map((stream) => stream.id),
  }),
  listReports: async ({ resources }, count) => ({
    params: {},
    ids: (await repeat(count, () => resources.report())).map((report) => report.id),
  }),
  listRecords: async ({ resources }, count) => {
    const report = await resources.report();
    const records = await repeat(count, () => resources.record(report.id));
    return { params: { reportId: report.id }, ids: records.map((record) => record.id) };
  },
  listWebhooks: async ({ fixture, accountId }, count) => {
    const webhooks = await repeat(count, () =>
      fixture.store.webhooks.insert({
        id: newId('WebhookId'),
        accountId,
        url: 'https://hooks.example.com/telemetry',
        events: ['report.generated'],
        description: null,
        signingSecret: 'whsec_not_used_by_these_tests',
        status: 'active',
        createdAt: isoTime(fixture.clock),
      }),
    );
    return { params: {}, ids: webhooks.map((webhook) => webhook.id) };
  },
  listWebhookDeliveries: async ({ fixture, accountId, resources }, count) => {
    const webhook = await resources.webhook();
    const params = { webhookId: webhook.id };
    await repeat(count, async () =>
      bodyOf(await resources.call('testWebhook', { token: resources.secretKey, params }), 201),
    );
    // The test event's reply names the event, not the delivery: the store tells which deliveries it queued.
    const page = await fixture.store.deliveries.list(accountId, { limit: count }, params);
    return { params, ids: (page?.items ?? []).map((row) => row.id).reverse() };
  },
};

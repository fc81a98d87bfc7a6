import { routes } from '../../generated/server/routes.js';
import { type AccountResources, sampleBodies } from './account-resources.js';
import type { OperationId, RequestParts, RestOperationId } from './call-operation.js';

/** Creates what an operation acts on (fresh, in the given account) and returns a request that must succeed. */
export type Scenario = (resources: AccountResources) => Promise<RequestParts>;

const withStream = async (resources: AccountResources) => ({ streamId: (await resources.stream()).id });
const withReport = async (resources: AccountResources) => ({ reportId: (await resources.report()).id });
const withRecord = async (resources: AccountResources) => {
  const { reportId } = await withReport(resources);
  return { reportId, recordId: (await resources.record(reportId)).id };
};
const withWebhook = async (resources: AccountResources) => ({ webhookId: (await resources.webhook()).id });
/** A list request after one item was created, so the list is not empty. */
const listing =
  (create: (resources: AccountResources) => Promise<unknown>): Scenario =>
  async (resources) => {
    await create(resources);
    return {};
  };

/** A succeeding request for every REST operation; the Record type makes a new operation fail to compile here. */
export const scenarios: Record<RestOperationId, Scenario> = {
  createStream: async () => ({ body: sampleBodies.stream }),
  listStreams: listing(withStream),
  getStream: async (resources) => ({ params: await withStream(resources) }),
  updateStream: async (resources) => ({ params: await withStream(resources), body: { title: 'Renamed' } }),
  deleteStream: async (resources) => ({ params: await withStream(resources) }),
  createSubscriberToken: async (resources) => ({
    params: await withStream(resources),
    body: { expiresIn: 900 },
  }),
  createReport: async () => ({ body: sampleBodies.report }),
  listReports: listing(withReport),
  getReport: async (resources) => ({ params: await withReport(resources) }),
  updateReport: async (resources) => ({ params: await withReport(resources), body: { title: 'Renamed' } }),
  deleteReport: async (resources) => ({ params: await withReport(resources) }),
  getReportFeed: async (resources) => ({ params: await withReport(resources) }),
  listRecords: async (resources) => ({ params: { reportId: (await withRecord(resources)).reportId } }),
  createRecord: async (resources) => ({ params: await withReport(resources), body: sampleBodies.record }),
  getRecord: async (resources) => ({ params: await withRecord(resources) }),
  updateRecord: async (resources) => ({ params: await withRecord(resources), body: { title: 'Trimmed' } }),
  publishRecord: async (resources) => ({ params: await withRecord(resources) }),
  deleteRecord: async (resources) => ({ params: await withRecord(resources) }),
  listWebhooks: listing(withWebhook),
  createWebhook: async () => ({ body: sampleBodies.webhook(['report.generated']) }),
  getWebhook: async (resources) => ({ params: await withWebhook(resources) }),
  deleteWebhook: async (resources) => ({ params: await withWebhook(resources) }),
  testWebhook: async (resources) => ({ params: await withWebhook(resources) }),
  listWebhookDeliveries: async (resources) => ({ params: await withWebhook(resources) }),
  rollWebhookSecret: async (resources) => ({ params: await withWebhook(resources) }),
  retryWebhookDelivery: async (resources) => ({ params: await resources.delivery() }),
  getAccount: async () => ({}),
};

/** The one success status the spec documents for an operation (201 for creations, 200 otherwise). */
export function successStatus(operationId: OperationId): number {
  const statuses = Object.keys(routes[operationId].responses).filter((status) => /^2\d\d$/.test(status));
  if (statuses.length !== 1) throw new Error(`${operationId} documents ${statuses.length} success statuses`);
  return Number(statuses[0]);
}

/** Whether an operation needs a credential at all (the feed is public). */
export const isProtected = (operationId: OperationId): boolean => routes[operationId].security.length > 0;

import type { Handlers } from '../../generated/server/handlers.js';
import { routes } from '../../generated/server/routes.js';
import { apiPolicies } from '../../generated/types/facts.js';
import { webhookUrlRefusal } from '../delivery/webhook-target.js';
import { problem } from '../problems.js';
import { accountObject } from '../services/account.js';
import { reportFeed } from '../services/feed.js';
import type { FeedCache } from '../services/feed-cache.js';
import * as records from '../services/records.js';
import * as reports from '../services/reports.js';
import * as streams from '../services/streams.js';
import { createSubscriberToken } from '../services/subscriber-tokens.js';
import { reportFeedUrl } from '../services/urls.js';
import * as webhooks from '../services/webhooks.js';
import { admitAddress } from './address-limit.js';
import type { Caller } from './authenticate-hook.js';
import type { ServiceDependencies } from './dependencies.js';

type ApiHandlers = Omit<Handlers<Caller>, 'oauthAuthorize' | 'oauthConsent' | 'oauthToken'>;

/** The feed operation's path as a `{reportId}` template, from the generated route table (Fastify writes `:reportId`). */
const feedPathTemplate = routes.getReportFeed.url.replace(/:([A-Za-z]+)/g, '{$1}');

/** The REST operations: each validated input goes to its service function; the reply carries the spec's status. */
/** Feed readers and proxies may keep a feed briefly; past that they revalidate with If-None-Match. */
const feedCacheControl = 'public, max-age=30';

/** RFC 9110 If-None-Match: `*` or a list of entity tags, compared weakly. */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function apiHandlers(dependencies: ServiceDependencies, feeds: FeedCache): ApiHandlers {
  const context = (caller: Caller): reports.ReportContext => ({
    store: dependencies.store,
    clock: dependencies.clock,
    urls: dependencies.urls,
    signingKey: dependencies.signingKey,
    accountId: caller.accountId,
    feedPathTemplate,
  });
  const renderFeed = async (reportId: string) => {
    const report = await dependencies.store.reports.getById(reportId);
    if (report === null) throw problem('resource_missing', `No such report: ${reportId}.`, 'reportId');
    const url = reportFeedUrl(dependencies.urls, feedPathTemplate, report.id);
    return feeds.get(report.id, report.accountId, () =>
      reportFeed(dependencies.store, report.accountId, report, url, apiPolicies.limits.maxFeedItems),
    );
  };
  return {
    createStream: async ({ auth, body }) => ({
      status: 201,
      // The account the authentication read for this request: no second read, and nothing to await.
      body: await streams.createStream(context(auth), body, auth.account.defaultRegion),
    }),
    listStreams: async ({ auth, query }) => ({
      status: 200,
      body: await streams.listStreams(context(auth), query),
    }),
    getStream: async ({ auth, params }) => ({
      status: 200,
      body: streams.streamObject(context(auth), await streams.requireStream(context(auth), params.streamId)),
    }),
    updateStream: async ({ auth, params, body }) => ({
      status: 200,
      body: await streams.updateStream(context(auth), params.streamId, body),
    }),
    deleteStream: async ({ auth, params }) => ({
      status: 200,
      body: await streams.deleteStream(context(auth), params.streamId, dependencies.streamLifecycle),
    }),
    createSubscriberToken: async ({ auth, params, body }) => ({
      status: 201,
      body: await createSubscriberToken(context(auth), params.streamId, body),
    }),
    createReport: async ({ auth, body }) => ({
      status: 201,
      body: await reports.createReport(context(auth), body),
    }),
    listReports: async ({ auth, query }) => ({
      status: 200,
      body: await reports.listReports(context(auth), query),
    }),
    getReport: async ({ auth, params }) => ({
      status: 200,
      body: reports.reportObject(context(auth), await reports.requireReport(context(auth), params.reportId)),
    }),
    updateReport: async ({ auth, params, body }) => ({
      status: 200,
      body: await reports.updateReport(context(auth), params.reportId, body),
    }),
    deleteReport: async ({ auth, params }) => ({
      status: 200,
      body: await reports.deleteReport(context(auth), params.reportId),
    }),
    getReportFeed: async ({ params, raw }) => {
      await admitAddress(dependencies.addressLimit, raw);
      const feed = (await feeds.lookup(params.reportId)) ?? (await renderFeed(params.reportId));
      const headers = { ETag: feed.etag, 'Cache-Control': feedCacheControl };
      if (ifNoneMatch(raw.headers['if-none-match'], feed.etag)) return { status: 304, headers };
      return { status: 200, body: feed.xml, headers };
    },
    listRecords: async ({ auth, params, query }) => ({
      status: 200,
      body: await records.listRecords(context(auth), params.reportId, query),
    }),
    createRecord: async ({ auth, params, body }) => ({
      status: 201,
      body: await records.createRecord(context(auth), params.reportId, body),
    }),
    getRecord: async ({ auth, params }) => ({
      status: 200,
      body: await records.getRecord(context(auth), params.reportId, params.recordId),
    }),
    updateRecord: async ({ auth, params, body }) => ({
      status: 200,
      body: await records.updateRecord(context(auth), params.reportId, params.recordId, body),
    }),
    publishRecord: async ({ auth, params }) => ({
      status: 200,
      body: await records.publishRecord(context(auth), params.reportId, params.recordId),
    }),
    deleteRecord: async ({ auth, params }) => ({
      status: 200,
      body: await records.deleteRecord(context(auth), params.reportId, params.recordId),
    }),
    listWebhooks: async ({ auth, query }) => ({
      status: 200,
      body: await webhooks.listWebhooks(context(auth), query),
    }),
    createWebhook: async ({ auth, body }) => {
      const refusal = await webhookUrlRefusal(body.url, dependencies.webhookTargets);
      if (refusal !== null)
        throw problem('webhook_url_forbidden', `The webhook url is refused: ${refusal}.`, 'url');
      return { status: 201, body: await webhooks.createWebhook(context(auth), body) };
    },
    getWebhook: async ({ auth, params }) => ({
      status: 200,
      body: await webhooks.getWebhook(context(auth), params.webhookId),
    }),
    deleteWebhook: async ({ auth, params }) => ({
      status: 200,
      body: await webhooks.deleteWebhook(context(auth), params.webhookId),
    }),
    testWebhook: async ({ auth, params }) => ({
      status: 201,
      body: await webhooks.sendTestEvent(context(auth), params.webhookId),
    }),
    rollWebhookSecret: async ({ auth, params }) => ({
      status: 200,
      body: await webhooks.rollWebhookSecret(context(auth), params.webhookId),
    }),
    retryWebhookDelivery: async ({ auth, params }) => ({
      status: 200,
      body: await webhooks.retryDelivery(context(auth), params.webhookId, params.deliveryId),
    }),
    listWebhookDeliveries: async ({ auth, params, query }) => ({
      status: 200,
      body: await webhooks.listDeliveries(context(auth), params.webhookId, query),
    }),
    getAccount: async ({ auth }) => ({ status: 200, body: accountObject(auth.account) }),
  };
}

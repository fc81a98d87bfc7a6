import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { telemetryServer } from '../../generated/server/plugin.js';
import { routes } from '../../generated/server/routes.js';
import { FeedCache, feedInvalidatingStore } from '../services/feed-cache.js';
import { newId } from '../services/ids.js';
import { apiHandlers } from './api-handlers.js';
import { authenticateHook } from './authenticate-hook.js';
import { redirectInvalidAuthorization } from './authorization-redirects.js';
import type { ServiceDependencies } from './dependencies.js';
import {
  answerHalfClosedRequests,
  ignoreUnknownExpectations,
  type RequestTimeouts,
  serverEdgeOptions,
  strictJsonParser,
} from './http-edges.js';
import { frameworkErrors, refuseUnfitValues, sendRouteNotFound } from './input-guards.js';
import { oauthHandlers, renderOAuthError } from './oauth-handlers.js';
import { type DestinationStream, type LogLevel, loggerOptions, logRequests } from './request-log.js';
import { corsForPublishableOperations, securityHeaders, unframeableHtml } from './response-headers.js';

/** The two HTTP faces of the service: the REST API at `{base_url}` and the authorization server at `{auth_url}`. */
export interface ServiceApps {
  api: FastifyInstance;
  auth: FastifyInstance;
}

const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '');

/** Long enough that an overlong id reaches its validator (400 parameter_invalid) rather than the router's limit. */
const maxParamLength = 16_384;

/** How the HTTP layer meets the network, as `start()` sets it from the configuration; defaults suit tests. */
export interface HttpSettings {
  /** Fastify's `trustProxy`: whose X-Forwarded-For gives the client address (ADR 0014). False by default. */
  trustProxy?: boolean | number | string | undefined;
  /** One line per request and every 5xx with its stack on stdout (pino); `silent`, the default, logs nothing. */
  logLevel?: LogLevel | undefined;
  /** Origins allowed to call the publishable-key operations from a browser (`*`: any; empty: no CORS). */
  corsOrigins?: readonly string[] | undefined;
  /** Slow-client limits; the spec's x-limits by default (tests shorten them). */
  timeouts?: RequestTimeouts | undefined;
  /** Where log lines go (stdout by default); tests collect them. */
  logStream?: DestinationStream | undefined;
}

/** A hop count trusts that many proxies nearest the server (Fastify's types take it only as a function). */
function trustProxyOption(trust: boolean | number | string) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/** An app for the operations under `prefix`; paths outside it are route_not_found too (the plugin has `prefix`'s). */
function newApp(prefix: string, settings: HttpSettings): FastifyInstance {
  const app = Fastify({
    ...loggerOptions(settings.logLevel ?? 'silent', settings.logStream),
    // The spec's request ids, so the log's reqId is the Request-Id the client sees.
    genReqId: () => newId('RequestId'),
    ...serverEdgeOptions(settings.timeouts),
    frameworkErrors,
    routerOptions: { maxParamLength },
    trustProxy: trustProxyOption(settings.trustProxy ?? false),
  });
  // Silent (the default of tests and benchmarks) logs nothing: no hook then, rather than one building unused lines.
  if ((settings.logLevel ?? 'silent') !== 'silent') logRequests(app);
  securityHeaders(app);
  ignoreUnknownExpectations(app);
  answerHalfClosedRequests(app);
  strictJsonParser(app);
  app.addHook('preValidation', refuseUnfitValues);
  if (prefix !== '') {
    app.setNotFoundHandler((request, reply) =>
      sendRouteNotFound(reply, `No operation has the path ${request.url.split('?')[0]}.`),
    );
  }
  return app;
}

/** Builds both apps without listening, so tests can use `inject()`. Operations with their own server go to `auth`. */
export async function buildApps(
  dependencies: ServiceDependencies,
  settings: HttpSettings = {},
): Promise<ServiceApps> {
  const all = Object.values(routes);
  const feeds = new FeedCache(dependencies.clock, dependencies.feedVersions);
  // Handlers write through a store that tells the feed cache, so a feed is rebuilt only after its account changed.
  const watched = { ...dependencies, store: feedInvalidatingStore(dependencies.store, feeds) };
  const handlers = { ...apiHandlers(watched, feeds), ...oauthHandlers(watched) };
  const common = {
    handlers,
    authenticate: authenticateHook(watched),
    renderError: renderOAuthError,
    requestId: (request: FastifyRequest) => request.id,
  };
  const api = newApp(pathOf(dependencies.urls.baseUrl), settings);
  corsForPublishableOperations(api, pathOf(dependencies.urls.baseUrl), settings.corsOrigins ?? ['*']);
  await api.register(telemetryServer, {
    ...common,
    prefix: pathOf(dependencies.urls.baseUrl),
    operations: all.filter((route) => route.serverUrl === null).map((route) => route.operationId),
  });
  const auth = newApp(pathOf(dependencies.urls.authUrl), settings);
  // Only the authorization server answers with HTML (the consent page).
  unframeableHtml(auth);
  auth.addHook(
    'preValidation',
    redirectInvalidAuthorization(dependencies, pathOf(dependencies.urls.authUrl)),
  );
  await auth.register(telemetryServer, {
    ...common,
    prefix: pathOf(dependencies.urls.authUrl),
    operations: all.filter((route) => route.serverUrl !== null).map((route) => route.operationId),
  });
  await Promise.all([api.ready(), auth.ready()]);
  return { api, auth };
}

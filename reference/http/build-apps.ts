import Fastify, { type FastifyInstance } from 'fastify';
import { telemetryServer } from '../../generated/server/plugin.js';
import { routes } from '../../generated/server/routes.js';
import { apiHandlers } from './api-handlers.js';
import { authenticateHook } from './authenticate-hook.js';
import type { ServiceDependencies } from './dependencies.js';
import { oauthHandlers, renderOAuthError } from './oauth-handlers.js';

/** The two HTTP faces of the service: the REST API at `{base_url}` and the authorization server at `{auth_url}`. */
export interface ServiceApps {
  api: FastifyInstance;
  auth: FastifyInstance;
}

const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '');

/** Builds both apps without listening, so tests can use `inject()`. Operations with their own server go to `auth`. */
export async function buildApps(dependencies: ServiceDependencies): Promise<ServiceApps> {
  const all = Object.values(routes);
  const handlers = { ...apiHandlers(dependencies), ...oauthHandlers(dependencies) };
  const common = { handlers, authenticate: authenticateHook(dependencies), renderError: renderOAuthError };
  const api = Fastify({ logger: false });
  await api.register(telemetryServer, {
    ...common,
    prefix: pathOf(dependencies.urls.baseUrl),
    operations: all.filter((route) => route.serverUrl === null).map((route) => route.operationId),
  });
  const auth = Fastify({ logger: false });
  await auth.register(telemetryServer, {
    ...common,
    prefix: pathOf(dependencies.urls.authUrl),
    operations: all.filter((route) => route.serverUrl !== null).map((route) => route.operationId),
  });
  await Promise.all([api.ready(), auth.ready()]);
  return { api, auth };
}

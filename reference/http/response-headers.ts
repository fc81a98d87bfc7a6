import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';
import { requestIdHeader } from '../../generated/server/plugin.js';
import { routes } from '../../generated/server/routes.js';
import type { OperationRoute } from '../../runtime/fastify-routes.js';
import { apiKeySchemeName, scopesOfKeyKind } from '../auth/api-keys.js';

/**
 * Headers every answer carries (issue 12, item 6; ADR 0014): `nosniff`, and `Cache-Control: no-store` unless the
 * handler chooses a policy of its own, which replaces it (every API answer is private to an account, and several carry
 * secrets: stream keys, webhook secrets, subscriber and OAuth tokens). Set when the request arrives rather than when
 * the answer leaves, so an app without HTML has no onSend phase at all (issue 16: one hook phase fewer per request).
 */
export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header(noSniffHeader, 'nosniff');
  reply.header(cacheControlHeader, 'no-store');
}

// Fastify keeps header names in lower case: named so, each request spares a toLowerCase and a string-table lookup a
// header (issue 16). Wire names do not change; Fastify writes them in lower case either way.
const noSniffHeader = 'X-Content-Type-Options'.toLowerCase();
const cacheControlHeader = 'Cache-Control'.toLowerCase();

export function securityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: every request runs it, and an async hook costs a promise per request.
  app.addHook('onRequest', (_request, reply, done) => {
    setSecurityHeaders(reply);
    done();
  });
}

/** On HTML (the authorization server's consent page), a CSP that forbids framing and loading anything else. */
export function unframeableHtml(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (String(reply.getHeader('Content-Type') ?? '').startsWith('text/html')) {
      reply.header(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      );
      reply.header('X-Frame-Options', 'DENY');
    }
    done(null, payload);
  });
}

/** Operations a publishable key may call (its scopes cover the ApiKey alternative): the browser-safe ones. */
export function publishableOperations(): OperationRoute[] {
  const held = scopesOfKeyKind('publishable');
  const all: readonly OperationRoute[] = Object.values(routes);
  return all.filter((route) => {
    const alternative = route.security
      .flatMap((requirement) => requirement.schemes)
      .find((scheme) => scheme.name === apiKeySchemeName);
    return (
      held !== 'all' && alternative !== undefined && alternative.scopes.every((scope) => held.includes(scope))
    );
  });
}

const exposedHeaders = [requestIdHeader, 'RateLimit', 'RateLimit-Policy', 'Retry-After'].join(', ');

/**
 * CORS for the publishable-key operations only, for origins in `allowedOrigins` (`*`: any). Secret-key operations
 * get no CORS headers, so a browser page cannot read their answers. Credentials are bearer tokens, never cookies.
 */
export function corsForPublishableOperations(
  app: FastifyInstance,
  prefix: string,
  allowedOrigins: readonly string[],
): void {
  if (allowedOrigins.length === 0) return;
  const allowed = (origin: string) => allowedOrigins.includes('*') || allowedOrigins.includes(origin);
  const byPath = new Map<string, Set<string>>();
  for (const route of publishableOperations()) {
    const methods = byPath.get(route.url) ?? new Set<string>();
    methods.add(String(route.method));
    byPath.set(route.url, methods);
  }
  const corsRoutes = new Set(publishableOperations().map((route) => `${route.method} ${prefix}${route.url}`));
  const answerCors: onRequestHookHandler = (request, reply, done) => {
    const origin = request.headers.origin;
    if (origin !== undefined && allowed(origin)) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Access-Control-Expose-Headers', exposedHeaders);
      reply.header('Vary', 'Origin');
    }
    done();
  };
  // On those routes alone, first of their hooks (so a refused credential's answer is readable too): every other
  // request is spared a hook (issue 16: about 1 µs of a POST /streams).
  const hooked = new Set<string>();
  app.addHook('onRoute', (options) => {
    const key = `${String(options.method)} ${options.url}`;
    if (!corsRoutes.has(key)) return;
    options.onRequest = [answerCors, ...[options.onRequest ?? []].flat()];
    hooked.add(key);
  });
  // A publishable operation whose route was not seen (a path spelt otherwise) would silently lose CORS.
  app.addHook('onReady', (done) => {
    const missed = [...corsRoutes].filter((key) => !hooked.has(key));
    done(missed.length === 0 ? undefined : new Error(`CORS hook not on ${missed.join(', ')}`));
  });
  for (const [url, methods] of byPath) {
    app.options(`${prefix}${url}`, async (request, reply) => {
      const origin = request.headers.origin;
      if (origin !== undefined && allowed(origin)) {
        reply.header('Access-Control-Allow-Methods', [...methods].join(', '));
        reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type');
        reply.header('Access-Control-Max-Age', '600');
      }
      return reply.code(204).send();
    });
  }
}

import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { BoundVerifier } from './webhook-middleware.js';
import type { RawBodyOptions } from './webhook-middleware-node.js';

/**
 * A Fastify plugin that replaces the JSON parser of the scope registering it: each body is read as a Buffer, verified,
 * and the event becomes `request.body` (type routes with `{ Body: <event union> }`). Register it inside the scope that
 * holds the webhook routes only, since every JSON body there must then be a signed delivery.
 */
export function createFastifyWebhookPlugin<Event>(
  verify: BoundVerifier<Event>,
  contentTypes: readonly string[],
  options: RawBodyOptions = {},
): FastifyPluginCallback {
  const plugin: FastifyPluginCallback = (instance, _options, done) => {
    const parserOptions = {
      parseAs: 'buffer' as const,
      ...(options.maxBodyBytes === undefined ? {} : { bodyLimit: options.maxBodyBytes }),
    };
    const parse = async (request: FastifyRequest, rawBody: Buffer) => verify(rawBody, request.headers);
    for (const contentType of contentTypes) {
      if (instance.hasContentTypeParser(contentType)) instance.removeContentTypeParser(contentType);
      instance.addContentTypeParser(contentType, parserOptions, parse);
    }
    done();
  };
  // What fastify-plugin does: without it the parser would apply only to a child scope with no routes.
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}

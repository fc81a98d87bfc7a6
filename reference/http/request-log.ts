import { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { requestIdHeader } from '../../generated/server/plugin.js';

/** Where pino writes each line (a JSON text ending in a newline). */
export interface DestinationStream {
  write(line: string): void;
}

/** pino's levels; `silent` logs nothing (the default of tests and of `buildApps`) and builds no logger. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Fastify's pino logger without its two default lines per request: `logRequests` writes one instead. Headers and
 * bodies are never logged (they carry keys, secrets, codes and tokens), and a request's line names its path without
 * the query. The paths in `redact` guard anything that logs a request object anyway.
 */
export function loggerOptions(
  level: LogLevel,
  stream?: DestinationStream,
): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  // Silent logs nothing, so no pino at all: Fastify would still make a pino child logger for every request.
  if (level === 'silent') return { logger: false };
  return {
    logger: {
      level,
      ...(stream === undefined ? {} : { stream }),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      serializers: {
        req: (request: { method: string; url: string }) => ({
          method: request.method,
          path: request.url.split('?')[0],
        }),
      },
    },
    logController: new LogController({ disableRequestLogging: true }),
  };
}

/** One line per request once its response is sent: request id, method, path, status and time in milliseconds. */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const line = {
      requestId: String(reply.getHeader(requestIdHeader) ?? request.id),
      method: request.method,
      path: request.url.split('?')[0],
      status,
      milliseconds: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (status >= 500) request.log.error(line, 'request failed');
    else request.log.info(line, 'request');
  });
}

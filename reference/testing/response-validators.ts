import { routes } from '../../generated/server/routes.js';
import * as validators from '../../generated/validators/index.js';
import type { ResponseRoute } from '../../runtime/fastify-routes.js';
import type { Validator } from '../../runtime/validation-result.js';
import type { OperationId, Reply } from './call-operation.js';

const generated: Readonly<Record<string, unknown>> = validators;

/** The generated validator of an operation's response for a status (`validate<OperationId>Response<status>`). */
export function responseValidator(operationId: OperationId, status: number): Validator<unknown> {
  const name = `validate${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}Response${status}`;
  const validator = generated[name];
  if (typeof validator !== 'function') throw new Error(`${operationId} documents no response ${status}`);
  return validator as Validator<unknown>;
}

/** The failure of validating a body as the response of that status, or null when the body conforms. */
export function responseProblem(operationId: OperationId, status: number, body: unknown): string | null {
  const result = responseValidator(operationId, status)(body);
  return result.ok ? null : `${result.error.param ?? ''}: ${result.error.message}`;
}

/** The body as the spec types it for the reply's status: parsed JSON, or the text of another content type. */
export function documentedBody(operationId: OperationId, reply: Reply): unknown {
  const responses: Readonly<Record<string, ResponseRoute>> = routes[operationId].responses;
  return responses[String(reply.status)]?.contentType?.includes('json') ? reply.body : reply.text;
}

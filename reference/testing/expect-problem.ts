import { expect } from 'vitest';
import { errorCodes } from '../../generated/types/errors.js';
import { schemaPatterns } from '../../generated/types/facts.js';
import { type ErrorEnvelope, isErrorEnvelope } from '../../runtime/error-envelope.js';
import type { ErrorCode } from '../problems.js';
import type { Reply } from './call-operation.js';

/**
 * Any error reply: the envelope, a status below 500, no stack trace, the code's status and type from the
 * catalogue, and a requestId in the spec's format equal to the Request-Id header.
 */
export function expectEnvelope(reply: Reply): ErrorEnvelope {
  expect(reply.status, reply.text).toBeLessThan(500);
  expect(reply.text).not.toMatch(/\bat .+:\d+:\d+\)?$/m);
  if (!isErrorEnvelope(reply.body)) throw new Error(`not an error envelope: ${reply.status} ${reply.text}`);
  const { error } = reply.body;
  const entry = errorCodes[error.code as ErrorCode];
  expect(entry, `code ${error.code} is in the catalogue`).toBeDefined();
  expect({ status: reply.status, type: error.type }).toEqual({ status: entry.status, type: entry.type });
  expect(error.requestId).toMatch(new RegExp(schemaPatterns.RequestId));
  expect(reply.headers['request-id']).toBe(error.requestId);
  return reply.body;
}

/** An error reply of one catalogue code; `param` when given (null: the envelope has none). */
export function expectProblem(reply: Reply, code: ErrorCode, param?: string | null): ErrorEnvelope {
  const envelope = expectEnvelope(reply);
  expect(envelope.error.code, reply.text).toBe(code);
  if (param !== undefined) expect(envelope.error.param).toBe(param ?? undefined);
  return envelope;
}

// Whether an answer's body is the API error envelope, judged as far as the target's profile judges.
import { validateErrorResponse } from '../../../generated/validators/index.js';
import { judgesInferred } from './rest-requirements.js';

function errorFields(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object') return {};
  const error = (body as Record<string, unknown>).error;
  return error !== null && typeof error === 'object' ? (error as Record<string, unknown>) : {};
}

/**
 * The whole envelope against the spec's schema (an empty message, a malformed requestId or a stray field fail it)
 * under the full profile; under the documented one only what the document states: type, code, message and
 * requestId are strings, the message says something, and `param` is a string when present.
 */
export function errorEnvelopeVerdict(body: unknown): { ok: true } | { ok: false; why: string } {
  if (judgesInferred()) {
    const verdict = validateErrorResponse(body);
    return verdict.ok
      ? { ok: true }
      : { ok: false, why: `${verdict.error.param ?? 'body'}: ${verdict.error.message}` };
  }
  const fields = errorFields(body);
  const strings =
    ['type', 'code', 'message', 'requestId'].every((name) => typeof fields[name] === 'string') &&
    (fields.param === undefined || typeof fields.param === 'string');
  if (!strings)
    return { ok: false, why: 'not { error: { type, code, message, param, requestId } } of strings' };
  return fields.message === '' ? { ok: false, why: 'an empty message' } : { ok: true };
}

export function isErrorEnvelope(body: unknown): boolean {
  return errorEnvelopeVerdict(body).ok;
}

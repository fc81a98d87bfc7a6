import { errorCodes } from '../generated/types/errors.js';
import { ApiProblem } from '../runtime/error-envelope.js';

export type ErrorCode = keyof typeof errorCodes;

/** An API error by its catalogue code: status and type come from the spec, never from here. */
export function problem(
  code: ErrorCode,
  message: string,
  param?: string,
  headers?: Record<string, string>,
): ApiProblem<ErrorCode> {
  return new ApiProblem(code, errorCodes[code], message, param, headers);
}

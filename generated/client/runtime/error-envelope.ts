// Copied by `npm run generate` from runtime/error-envelope.ts. Do not edit: change runtime/ and regenerate.

/**
 * The API error envelope `{ error: { type, code, message, param?, requestId } }` as generic data. The names of types
 * and codes come from the spec through the generated catalogue (`generated/types/errors.ts`); nothing here knows them.
 */
export interface ErrorDetail<Type extends string = string, Code extends string = string> {
  type: Type;
  code: Code;
  message: string;
  param?: string;
}

export interface ErrorEnvelope<Type extends string = string, Code extends string = string> {
  error: ErrorDetail<Type, Code> & { requestId: string };
}

/** A catalogue entry as the generated `errorCodes` constant holds it. */
export interface ErrorCodeEntry {
  readonly status: number;
  readonly type: string;
  readonly description: string;
}

export function envelope<Type extends string, Code extends string>(
  detail: ErrorDetail<Type, Code>,
  requestId: string,
): ErrorEnvelope<Type, Code> {
  const { param, ...rest } = detail;
  return { error: { ...rest, ...(param === undefined ? {} : { param }), requestId } };
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (value === null || typeof value !== 'object' || !('error' in value)) return false;
  const error: unknown = value.error;
  if (error === null || typeof error !== 'object') return false;
  const fields = error as Record<string, unknown>;
  return (
    typeof fields.type === 'string' &&
    typeof fields.code === 'string' &&
    typeof fields.message === 'string' &&
    typeof fields.requestId === 'string' &&
    (fields.param === undefined || typeof fields.param === 'string')
  );
}

/** An error carrying a catalogue code; the HTTP edge renders it as the envelope with the code's status and type. */
export class ApiProblem<Code extends string = string> extends Error {
  readonly status: number;
  readonly type: string;

  constructor(
    readonly code: Code,
    entry: ErrorCodeEntry,
    message: string,
    readonly param?: string,
    /** Headers the response must carry (`WWW-Authenticate`, `Retry-After`, `Allow`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiProblem';
    this.status = entry.status;
    this.type = entry.type;
  }

  toDetail(): ErrorDetail {
    return {
      type: this.type,
      code: this.code,
      message: this.message,
      ...(this.param === undefined ? {} : { param: this.param }),
    };
  }
}

import type { ErrorDetail } from './error-envelope.js';

/** What every generated validator returns: the (possibly coerced) value, or the error the API would answer with. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: ErrorDetail };

export type Validator<T> = (value: unknown) => ValidationResult<T>;

import type { Problem } from '../problems.js';
import { isObject } from './json.js';
import type { JsonSchema, NamedSchema } from './model.js';
import { worstCaseJsonBytes } from './worst-case-json.js';

/**
 * `x-limits.maxRequestBodyBytes: { largestBodyOf: <Schema> }` states the body limit by the schema whose largest
 * instance must fit; the model carries the number (the largest compact JSON of that schema), so the limit and the
 * schema's own limits cannot disagree (issue 12 item 12).
 */
export function deriveLimits(
  extensions: Record<string, unknown>,
  schemas: readonly NamedSchema[],
  file: string,
  problems: Problem[],
): Record<string, unknown> {
  const limits = extensions['x-limits'];
  const statement = isObject(limits) ? limits.maxRequestBodyBytes : undefined;
  if (!isObject(limits) || !isObject(statement) || typeof statement.largestBodyOf !== 'string')
    return extensions;
  const named = new Map<string, JsonSchema>(schemas.map((schema) => [schema.name, schema.schema]));
  const target = named.get(statement.largestBodyOf);
  const bytes = target === undefined ? Number.NaN : worstCaseJsonBytes(target, named);
  if (!Number.isFinite(bytes)) {
    problems.push({
      severity: 'error',
      file,
      pointer: '/x-limits/maxRequestBodyBytes',
      message:
        target === undefined
          ? `largestBodyOf names no schema: ${statement.largestBodyOf}`
          : `${statement.largestBodyOf} does not bound its size (a string without maxLength, an array without maxItems, an open object without maxProperties)`,
      rule: 'ir/derived-limit',
    });
    return extensions;
  }
  return { ...extensions, 'x-limits': { ...limits, maxRequestBodyBytes: bytes } };
}

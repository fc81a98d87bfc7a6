import type { CsvLayout } from '../../../runtime/codecs/csv.js';
import { canonicalJson, isObject } from '../../ir/json.js';
import type { ApiModel, Message } from '../../ir/model.js';
import { schemaRefPrefix } from '../../ir/schema-names.js';
import type { Problem } from '../../problems.js';

/** A problem below an IR node, whose origin is `<file>#<pointer>`. */
export function problemAt(origin: string, below: string, message: string): Problem {
  const [file = '', pointer = ''] = origin.split('#');
  return { severity: 'error', file, pointer: `${pointer}${below}`, message, rule: 'messages/unsupported' };
}

const layoutFields = ['timestampColumn', 'timestampField', 'valuesField'] as const;

/** `x-csv-layout: { timestampColumn, timestampField, valuesField }`; null (and a problem when malformed) otherwise. */
export function csvLayoutOf(message: Message, problems: Problem[]): CsvLayout | null {
  const value = message.extensions['x-csv-layout'];
  if (value === undefined) {
    const text = 'text/csv without x-csv-layout: the payload is handled as plain text';
    problems.push({ ...problemAt(message.origin, '/contentType', text), severity: 'warning' });
    return null;
  }
  const strings = layoutFields.map((field) => (isObject(value) ? value[field] : undefined));
  const [timestampColumn, timestampField, valuesField] = strings;
  if (
    typeof timestampColumn !== 'string' ||
    typeof timestampField !== 'string' ||
    typeof valuesField !== 'string' ||
    strings.some((field) => field === '') ||
    timestampField === valuesField
  ) {
    const text = `x-csv-layout needs non-empty strings ${layoutFields.join(', ')}, the two fields distinct`;
    problems.push(problemAt(message.origin, '/x-csv-layout', text));
    return null;
  }
  return { timestampColumn, timestampField, valuesField };
}

/** The named schema `x-decodes-to` refers to, or equals once bundling has inlined it; null when none does. */
export function decodedSchemaName(model: ApiModel, value: unknown): string | null {
  if (!isObject(value)) return null;
  const ref = value.$ref;
  const wanted =
    typeof ref === 'string' && ref.startsWith(schemaRefPrefix) ? ref.slice(schemaRefPrefix.length) : null;
  const text = canonicalJson(value);
  const named = model.schemas.find((schema) =>
    wanted === null ? canonicalJson(schema.schema) === text : schema.name === wanted,
  );
  return named?.name ?? null;
}

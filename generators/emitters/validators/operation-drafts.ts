import type { Operation } from '../../ir/model.js';
import { pascalCase } from '../../ir/names.js';
import { type ParameterLocation, type ParameterPolicy, parameterSetSchema } from './parameter-schema.js';
import type { TargetDraft } from './target-draft.js';

const parameterSets: Array<{ location: ParameterLocation; part: string; label: string; noun: string }> = [
  { location: 'query', part: 'query', label: 'Query', noun: 'Query parameters' },
  { location: 'path', part: 'path', label: 'Path', noun: 'Path parameters' },
  { location: 'header', part: 'headers', label: 'Headers', noun: 'Headers' },
];

/** `201` and `2XX` stay as written; `default` becomes `Default`. */
function statusName(status: string): string {
  return /^[0-9X]+$/i.test(status) ? status.toUpperCase() : pascalCase(status);
}

/** Body, parameter sets and responses with a schema of one operation, in that order. */
export function operationDrafts(operation: Operation, policy: ParameterPolicy): TargetDraft[] {
  const base = pascalCase(operation.id);
  const where = `${operation.id} (${operation.method.toUpperCase()} ${operation.path})`;
  const common = { origin: operation.origin };
  const drafts: TargetDraft[] = [];
  if (operation.requestBody !== null) {
    drafts.push({
      ...common,
      symbolKind: 'operation-input',
      symbolId: `${operation.id}.body`,
      baseName: `${base}Body`,
      schema: operation.requestBody.schema,
      parameters: false,
      type: { kind: 'operation-body', id: operation.id, member: null },
      summary: `Request body of ${where}.`,
    });
  }
  for (const { location, part, label, noun } of parameterSets) {
    const parameters = operation.parameters.filter((parameter) => parameter.in === location);
    if (parameters.length === 0) continue;
    drafts.push({
      ...common,
      symbolKind: 'operation-input',
      symbolId: `${operation.id}.${part}`,
      baseName: `${base}${label}`,
      schema: parameterSetSchema(parameters, location, policy),
      parameters: true,
      type: { kind: 'operation-parameters', id: operation.id, member: location },
      summary: `${noun} of ${where}, coerced from strings, defaults filled in.`,
    });
  }
  for (const response of operation.responses) {
    if (response.schema === null) continue;
    drafts.push({
      ...common,
      symbolKind: 'operation-response',
      symbolId: `${operation.id}.${response.status}`,
      baseName: `${base}Response${statusName(response.status)}`,
      schema: response.schema,
      parameters: false,
      type: { kind: 'operation-responses', id: operation.id, member: response.status },
      summary: `Response ${response.status} of ${where}.`,
    });
  }
  return drafts;
}

import type { Problem } from '../problems.js';
import { type AsyncapiInput, buildAsyncapiPart } from './build-asyncapi.js';
import { buildOpenapiPart, compare, type OpenapiInput } from './build-openapi.js';
import { deriveLimits } from './derived-limits.js';
import { canonicalJson, isObject, stringAt } from './json.js';
import type { ApiModel, Channel, NamedSchema, SourceDocument } from './model.js';
import { renameSchemaRefs } from './schema-names.js';

export interface ModelInput {
  openapi: OpenapiInput | null;
  asyncapi: AsyncapiInput | null;
}

function sourceOf(kind: SourceDocument['kind'], input: OpenapiInput | AsyncapiInput): SourceDocument {
  const info = isObject(input.document.info) ? input.document.info : {};
  return {
    kind,
    file: input.file,
    title: stringAt(info, 'title') ?? '',
    version: stringAt(info, 'version') ?? '',
  };
}

/**
 * Schemas shared by both documents arrive twice; identical ones are kept once. An AsyncAPI schema whose name is taken
 * by a different OpenAPI schema is renamed (`<Name>Message`) and the AsyncAPI side's references follow it.
 */
function mergeSchemas(
  restSchemas: NamedSchema[],
  eventSchemas: NamedSchema[],
  channels: Channel[],
): { schemas: NamedSchema[]; channels: Channel[] } {
  const byName = new Map(restSchemas.map((schema) => [schema.name, schema]));
  const renames = new Map<string, string>();
  for (const schema of eventSchemas) {
    const existing = byName.get(schema.name);
    if (existing !== undefined && canonicalJson(existing.schema) !== canonicalJson(schema.schema)) {
      let name = `${schema.name}Message`;
      for (let suffix = 2; byName.has(name); suffix += 1) name = `${schema.name}Message${suffix}`;
      renames.set(schema.name, name);
      byName.set(name, schema);
    }
  }
  const rename = <T>(value: T): T => (renames.size === 0 ? value : (renameSchemaRefs(value, renames) as T));
  for (const schema of eventSchemas) {
    const name = renames.get(schema.name) ?? schema.name;
    if (byName.get(name) === schema || !byName.has(name))
      byName.set(name, { ...schema, name, schema: rename(schema.schema) });
  }
  const schemas = [...byName.values()].map((schema) => schema).sort((a, b) => compare(a.name, b.name));
  return { schemas, channels: rename(channels) };
}

export function buildModel(input: ModelInput, problems: Problem[]): ApiModel {
  const rest = input.openapi === null ? null : buildOpenapiPart(input.openapi, problems);
  const events = input.asyncapi === null ? null : buildAsyncapiPart(input.asyncapi, problems);
  const merged = mergeSchemas(rest?.schemas ?? [], events?.schemas ?? [], events?.channels ?? []);
  const sources: SourceDocument[] = [];
  if (input.openapi !== null) sources.push(sourceOf('openapi', input.openapi));
  if (input.asyncapi !== null) sources.push(sourceOf('asyncapi', input.asyncapi));
  return {
    sources,
    serverUrl: rest?.serverUrl ?? null,
    schemas: merged.schemas,
    operations: rest?.operations ?? [],
    webhooks: rest?.webhooks ?? [],
    channels: merged.channels,
    securitySchemes: rest?.securitySchemes ?? [],
    extensions:
      input.openapi === null
        ? {}
        : deriveLimits(rest?.extensions ?? {}, merged.schemas, input.openapi.file, problems),
  };
}

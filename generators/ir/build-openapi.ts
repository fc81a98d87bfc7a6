import { formatJsonPointer } from '../../runtime/json-pointer.js';
import type { Problem } from '../problems.js';
import { extensionsOf, isObject, type JsonObject, objectAt, stringAt } from './json.js';
import type {
  HttpMethod,
  JsonSchema,
  NamedSchema,
  Operation,
  Parameter,
  RequestBody,
  Response,
  SecurityRequirement,
  SecurityScheme,
  Webhook,
} from './model.js';
import { camelCase, commentText, identifier } from './names.js';
import { type Location, preferredContentType, resolveLocalRef } from './refs.js';
import { nameComponentSchemas, renameSchemaRefs, type SchemaNameMap } from './schema-names.js';

const httpMethods: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];

export interface OpenapiInput {
  /** Path of the document relative to the repository root. */
  file: string;
  /** Redocly's bundle: external references hoisted into components. */
  document: JsonObject;
  /** Component key → where the schema was written (`spec/schemas/stream.yaml`), for `@see` links. */
  origins: ReadonlyMap<string, string>;
}

export interface OpenapiModelPart {
  names: SchemaNameMap;
  schemas: NamedSchema[];
  operations: Operation[];
  webhooks: Webhook[];
  securitySchemes: SecurityScheme[];
  serverUrl: string | null;
  extensions: Record<string, unknown>;
}

interface Context {
  document: JsonObject;
  file: string;
  problems: Problem[];
}

function schemaOf(node: JsonObject | null): JsonSchema {
  const schema = node?.schema;
  return typeof schema === 'boolean' || isObject(schema) ? schema : {};
}

function buildParameters(context: Context, nodes: unknown[], pointer: string): Parameter[] {
  const parameters: Parameter[] = [];
  nodes.forEach((node, index) => {
    const location: Location = { file: context.file, pointer: `${pointer}/${index}` };
    const parameter = resolveLocalRef(context.document, node, location, context.problems);
    if (parameter === null) return;
    const place = stringAt(parameter, 'in');
    const name = stringAt(parameter, 'name') ?? '';
    if (place !== 'path' && place !== 'query' && place !== 'header') {
      context.problems.push({
        severity: 'error',
        ...location,
        message: `parameter "${name}" in ${place ?? 'nowhere'} is not supported (only path, query and header)`,
        rule: 'ir/unsupported',
      });
      return;
    }
    parameters.push({
      name,
      in: place,
      required: place === 'path' || parameter.required === true,
      description: commentText(stringAt(parameter, 'description')),
      schema: schemaOf(parameter),
    });
  });
  return parameters;
}

/** Path-item parameters apply unless the operation redefines the same name and place. */
function mergeParameters(pathLevel: Parameter[], operationLevel: Parameter[]): Parameter[] {
  const key = (parameter: Parameter) => `${parameter.in}:${parameter.name}`;
  const overridden = new Set(operationLevel.map(key));
  return [...pathLevel.filter((parameter) => !overridden.has(key(parameter))), ...operationLevel];
}

function buildRequestBody(context: Context, node: unknown, pointer: string): RequestBody | null {
  if (node === undefined) return null;
  const location = { file: context.file, pointer };
  const body = resolveLocalRef(context.document, node, location, context.problems);
  const content = objectAt(body, 'content');
  const contentType = preferredContentType(content);
  if (body === null || contentType === null) {
    context.problems.push({
      severity: 'error',
      ...location,
      message: 'request body without content',
      rule: 'ir/unsupported',
    });
    return null;
  }
  return { required: body.required === true, contentType, schema: schemaOf(objectAt(content, contentType)) };
}

function buildResponses(context: Context, node: JsonObject | null, pointer: string): Response[] {
  return Object.entries(node ?? {}).flatMap(([status, value]) => {
    const location = { file: context.file, pointer: `${pointer}/${status}` };
    const response = resolveLocalRef(context.document, value, location, context.problems);
    if (response === null) return [];
    const content = objectAt(response, 'content');
    const contentType = preferredContentType(content);
    const headers = Object.entries(objectAt(response, 'headers') ?? {}).flatMap(([name, headerNode]) => {
      const headerPointer = `${location.pointer}/headers/${name.replaceAll('/', '~1')}`;
      const header = resolveLocalRef(
        context.document,
        headerNode,
        { ...location, pointer: headerPointer },
        context.problems,
      );
      return header === null ? [] : [{ name, required: header.required === true, schema: schemaOf(header) }];
    });
    return [
      {
        status,
        description: stringAt(response, 'description') ?? '',
        contentType,
        schema: contentType === null ? null : schemaOf(objectAt(content, contentType)),
        headers,
      },
    ];
  });
}

function buildSecurity(node: unknown): SecurityRequirement[] {
  if (!Array.isArray(node)) return [];
  return node.filter(isObject).map((requirement) => ({
    schemes: Object.entries(requirement).map(([name, scopes]) => ({
      name,
      scopes: Array.isArray(scopes)
        ? scopes.filter((scope): scope is string => typeof scope === 'string')
        : [],
    })),
  }));
}

/** The first server's URL with each `{variable}` replaced by its default (a variable without one stays a template). */
function firstServerUrl(node: unknown): string | null {
  if (!Array.isArray(node) || !isObject(node[0])) return null;
  const server = node[0];
  const variables = objectAt(server, 'variables') ?? {};
  return (
    (stringAt(server, 'url') ?? '').replace(
      /\{([^}]+)\}/g,
      (whole, name: string) => stringAt(variables[name], 'default') ?? whole,
    ) || null
  );
}

function operationGroup(operation: JsonObject, path: string): string {
  const tags = operation.tags;
  const firstTag = Array.isArray(tags) && typeof tags[0] === 'string' ? tags[0] : null;
  return camelCase(
    firstTag ?? path.split('/').find((segment) => segment !== '' && !segment.startsWith('{')) ?? 'root',
  );
}

function buildOperations(context: Context): Operation[] {
  const operations: Operation[] = [];
  for (const [path, pathNode] of Object.entries(objectAt(context.document, 'paths') ?? {})) {
    const pathPointer = formatJsonPointer(['paths', path]);
    const pathItem = resolveLocalRef(
      context.document,
      pathNode,
      { file: context.file, pointer: pathPointer },
      context.problems,
    );
    if (pathItem === null) continue;
    const pathParameters = buildParameters(
      context,
      asArray(pathItem.parameters),
      `${pathPointer}/parameters`,
    );
    for (const method of httpMethods) {
      const operation = objectAt(pathItem, method);
      if (operation === null) continue;
      const pointer = `${pathPointer}/${method}`;
      const ownParameters = buildParameters(context, asArray(operation.parameters), `${pointer}/parameters`);
      if (operation.callbacks !== undefined) {
        context.problems.push({
          severity: 'error',
          file: context.file,
          pointer: `${pointer}/callbacks`,
          message: 'callbacks are not supported; describe them as top-level webhooks',
          rule: 'ir/unsupported',
        });
      }
      operations.push({
        kind: 'operation',
        id: identifier(stringAt(operation, 'operationId') ?? camelCase(`${method} ${path}`)),
        method,
        path,
        group: operationGroup(operation, path),
        summary: commentText(stringAt(operation, 'summary')),
        description: commentText(stringAt(operation, 'description')),
        origin: `${context.file}#${pointer}`,
        security: buildSecurity(operation.security ?? context.document.security),
        parameters: mergeParameters(pathParameters, ownParameters),
        requestBody: buildRequestBody(context, operation.requestBody, `${pointer}/requestBody`),
        responses: buildResponses(context, objectAt(operation, 'responses'), `${pointer}/responses`),
        serverUrl: firstServerUrl(operation.servers) ?? firstServerUrl(pathItem.servers),
        extensions: { ...extensionsOf(pathItem), ...extensionsOf(operation) },
      });
    }
  }
  return operations.sort((a, b) => compare(a.id, b.id));
}

function buildWebhooks(context: Context): Webhook[] {
  const webhooks: Webhook[] = [];
  for (const [name, pathNode] of Object.entries(objectAt(context.document, 'webhooks') ?? {})) {
    const itemPointer = formatJsonPointer(['webhooks', name]);
    const pathItem = resolveLocalRef(
      context.document,
      pathNode,
      { file: context.file, pointer: itemPointer },
      context.problems,
    );
    for (const method of httpMethods) {
      const operation = objectAt(pathItem, method);
      if (operation === null) continue;
      const pointer = `${itemPointer}/${method}`;
      const body = buildRequestBody(context, operation.requestBody, `${pointer}/requestBody`);
      if (body === null) continue;
      webhooks.push({
        kind: 'webhook',
        name,
        id: identifier(stringAt(operation, 'operationId') ?? camelCase(name)),
        method,
        summary: commentText(stringAt(operation, 'summary') ?? stringAt(operation, 'description')),
        origin: `${context.file}#${pointer}`,
        headers: buildParameters(context, asArray(operation.parameters), `${pointer}/parameters`).filter(
          (parameter) => parameter.in === 'header',
        ),
        contentType: body.contentType,
        payload: body.schema,
      });
    }
  }
  return webhooks.sort((a, b) => compare(a.name, b.name));
}

function buildSecuritySchemes(document: JsonObject): SecurityScheme[] {
  const schemes = objectAt(objectAt(document, 'components'), 'securitySchemes') ?? {};
  return Object.entries(schemes)
    .filter((entry): entry is [string, JsonObject] => isObject(entry[1]))
    .map(([name, scheme]) => {
      const flow =
        objectAt(objectAt(scheme, 'flows'), 'authorizationCode') ??
        objectAt(objectAt(scheme, 'flows'), 'clientCredentials');
      const scopes = objectAt(flow, 'scopes') ?? {};
      return {
        name,
        type: stringAt(scheme, 'type') ?? 'unknown',
        scheme: stringAt(scheme, 'scheme'),
        scopes: Object.fromEntries(Object.entries(scopes).map(([scope, text]) => [scope, String(text)])),
        authorizationUrl: stringAt(flow, 'authorizationUrl'),
        tokenUrl: stringAt(flow, 'tokenUrl'),
        extensions: extensionsOf(scheme),
      };
    })
    .sort((a, b) => compare(a.name, b.name));
}

export function buildOpenapiPart(input: OpenapiInput, problems: Problem[]): OpenapiModelPart {
  const componentSchemas = objectAt(objectAt(input.document, 'components'), 'schemas') ?? {};
  const names = nameComponentSchemas(componentSchemas);
  const document = renameSchemaRefs(input.document, names) as JsonObject;
  const renamedSchemas = objectAt(objectAt(document, 'components'), 'schemas') ?? {};
  const context: Context = { document, file: input.file, problems };
  const schemas: NamedSchema[] = [];
  for (const [key, name] of names) {
    const schema = renamedSchemas[key];
    if (schemas.some((existing) => existing.name === name) || schema === undefined) continue;
    if (isObject(schema) && Object.keys(schema).length === 1 && typeof schema.$ref === 'string') continue;
    schemas.push({
      kind: 'schema',
      name,
      origin: input.origins.get(key) ?? `${input.file}#${formatJsonPointer(['components', 'schemas', key])}`,
      description: commentText(stringAt(schema, 'description')),
      schema: typeof schema === 'boolean' || isObject(schema) ? schema : {},
    });
  }
  return {
    names,
    schemas: schemas.sort((a, b) => compare(a.name, b.name)),
    operations: buildOperations(context),
    webhooks: buildWebhooks(context),
    securitySchemes: buildSecuritySchemes(document),
    serverUrl: firstServerUrl(document.servers),
    extensions: extensionsOf(document),
  };
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

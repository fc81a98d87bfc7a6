import { formatJsonPointer } from '../../runtime/json-pointer.js';
import type { Problem } from '../problems.js';
import { compare } from './build-openapi.js';
import { extensionsOf, isObject, type JsonObject, objectAt, stringAt } from './json.js';
import type { Channel, ChannelParameter, JsonSchema, Message, NamedSchema } from './model.js';
import { camelCase, commentText } from './names.js';
import { resolveLocalRef } from './refs.js';
import { nameComponentSchemas, renameSchemaRefs, type SchemaNameMap } from './schema-names.js';

export interface AsyncapiInput {
  file: string;
  /** Redocly's bundle of the AsyncAPI 3 document. */
  document: JsonObject;
  origins: ReadonlyMap<string, string>;
}

export interface AsyncapiModelPart {
  names: SchemaNameMap;
  schemas: NamedSchema[];
  channels: Channel[];
}

interface Context {
  document: JsonObject;
  file: string;
  problems: Problem[];
}

const jsonSchemaFormats = /^application\/(vnd\.aai\.asyncapi|schema)(\+json|\+yaml)?(;version=.*)?$/;

/** A payload is a schema, or (AsyncAPI 3) a multi-format object whose format must be JSON Schema or AsyncAPI Schema. */
function payloadSchema(context: Context, node: unknown, pointer: string): JsonSchema | null {
  if (node === undefined) return {};
  if (isObject(node) && typeof node.schemaFormat === 'string') {
    if (!jsonSchemaFormats.test(node.schemaFormat)) {
      context.problems.push({
        severity: 'error',
        file: context.file,
        pointer: `${pointer}/schemaFormat`,
        message: `schema format ${node.schemaFormat} is not supported (only JSON Schema and AsyncAPI Schema)`,
        rule: 'ir/unsupported',
      });
      return null;
    }
    return isObject(node.schema) || typeof node.schema === 'boolean' ? node.schema : {};
  }
  return isObject(node) || typeof node === 'boolean' ? node : {};
}

/** Traits are merged under the message: the message's own fields win (AsyncAPI 3 section "Message Trait Object"). */
function applyTraits(context: Context, message: JsonObject, pointer: string): JsonObject {
  const traits = Array.isArray(message.traits) ? message.traits : [];
  const merged: Record<string, unknown> = {};
  traits.forEach((trait, index) => {
    const resolved = resolveLocalRef(
      context.document,
      trait,
      { file: context.file, pointer: `${pointer}/traits/${index}` },
      context.problems,
    );
    Object.assign(merged, resolved ?? {});
  });
  const { traits: _traits, ...own } = message;
  return { ...merged, ...own };
}

function buildMessage(context: Context, id: string, node: unknown, pointer: string): Message | null {
  const resolved = resolveLocalRef(context.document, node, { file: context.file, pointer }, context.problems);
  if (resolved === null) return null;
  const message = applyTraits(context, resolved, pointer);
  const payload = payloadSchema(context, message.payload, `${pointer}/payload`);
  if (payload === null) return null;
  const headers =
    message.headers === undefined ? null : payloadSchema(context, message.headers, `${pointer}/headers`);
  return {
    kind: 'message',
    id: camelCase(id),
    name: stringAt(message, 'name') ?? id,
    title: commentText(stringAt(message, 'title') ?? stringAt(message, 'summary')),
    contentType:
      stringAt(message, 'contentType') ??
      stringAt(context.document, 'defaultContentType') ??
      'application/json',
    payload,
    headers,
    origin: `${context.file}#${pointer}`,
    extensions: extensionsOf(message),
  };
}

function channelActions(document: JsonObject, channelKey: string): Array<'send' | 'receive'> {
  const target = `#/channels/${channelKey.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  const actions = new Set<'send' | 'receive'>();
  for (const operation of Object.values(objectAt(document, 'operations') ?? {})) {
    const action = stringAt(operation, 'action');
    if (
      stringAt(objectAt(operation, 'channel'), '$ref') === target &&
      (action === 'send' || action === 'receive')
    ) {
      actions.add(action);
    }
  }
  return [...actions].sort();
}

function channelProtocols(context: Context, channel: JsonObject): string[] {
  const serverRefs = Array.isArray(channel.servers)
    ? channel.servers
    : Object.values(objectAt(context.document, 'servers') ?? {});
  const protocols = serverRefs.flatMap((server, index) => {
    const resolved = resolveLocalRef(
      context.document,
      server,
      { file: context.file, pointer: `/servers/${index}` },
      context.problems,
    );
    const protocol = stringAt(resolved, 'protocol');
    return protocol === null ? [] : [protocol];
  });
  return [...new Set(protocols)].sort();
}

function buildChannels(context: Context): Channel[] {
  const channels: Channel[] = [];
  for (const [key, node] of Object.entries(objectAt(context.document, 'channels') ?? {})) {
    const pointer = formatJsonPointer(['channels', key]);
    const channel = resolveLocalRef(
      context.document,
      node,
      { file: context.file, pointer },
      context.problems,
    );
    if (channel === null) continue;
    const parameters: ChannelParameter[] = Object.entries(objectAt(channel, 'parameters') ?? {}).map(
      ([name, parameterNode]) => {
        const parameter = resolveLocalRef(
          context.document,
          parameterNode,
          { file: context.file, pointer: `${pointer}/parameters/${name}` },
          context.problems,
        );
        return { name, description: commentText(stringAt(parameter, 'description')) };
      },
    );
    const messages = Object.entries(objectAt(channel, 'messages') ?? {}).flatMap(
      ([messageKey, messageNode]) => {
        const message = buildMessage(context, messageKey, messageNode, `${pointer}/messages/${messageKey}`);
        return message === null ? [] : [message];
      },
    );
    channels.push({
      kind: 'channel',
      id: camelCase(key),
      address: stringAt(channel, 'address'),
      title: commentText(stringAt(channel, 'title')),
      description: commentText(stringAt(channel, 'description')),
      protocols: channelProtocols(context, channel),
      parameters,
      messages,
      actions: channelActions(context.document, key),
      origin: `${context.file}#${pointer}`,
      extensions: extensionsOf(channel),
    });
  }
  return channels.sort((a, b) => compare(a.id, b.id));
}

export function buildAsyncapiPart(input: AsyncapiInput, problems: Problem[]): AsyncapiModelPart {
  const version = stringAt(input.document, 'asyncapi') ?? '';
  if (!version.startsWith('3.')) {
    problems.push({
      severity: 'error',
      file: input.file,
      pointer: '/asyncapi',
      message: `AsyncAPI ${version || '(no version)'} is not supported; the generators read AsyncAPI 3.x`,
      rule: 'ir/unsupported',
    });
    return { names: new Map(), schemas: [], channels: [] };
  }
  const componentSchemas = objectAt(objectAt(input.document, 'components'), 'schemas') ?? {};
  const names = nameComponentSchemas(componentSchemas);
  const document = renameSchemaRefs(input.document, names) as JsonObject;
  const renamed = objectAt(objectAt(document, 'components'), 'schemas') ?? {};
  const schemas: NamedSchema[] = [...names]
    .filter(([key]) => {
      const schema = renamed[key];
      return !(isObject(schema) && Object.keys(schema).length === 1 && typeof schema.$ref === 'string');
    })
    .map(([key, name]) => {
      const schema = renamed[key];
      return {
        kind: 'schema' as const,
        name,
        origin:
          input.origins.get(key) ?? `${input.file}#${formatJsonPointer(['components', 'schemas', key])}`,
        description: commentText(stringAt(schema, 'description')),
        schema: typeof schema === 'boolean' || isObject(schema) ? schema : {},
      };
    });
  return { names, schemas, channels: buildChannels({ document, file: input.file, problems }) };
}

// Pure: turns the parsed OpenAPI and (ref-resolved) AsyncAPI documents into the index page's data.
import type { ChannelMessage, EventChannel, IndexData, RestOperation, WebhookEvent } from './index-data.js';

type JsonObject = Record<string, unknown>;
const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}
function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
function firstServerUrl(value: unknown): string {
  return Array.isArray(value) ? asText(asObject(value[0]).url) : '';
}

// Webhooks often point at components/pathItems; only local pointers can remain after bundling.
function resolveLocal(root: JsonObject, value: unknown): JsonObject {
  const reference = asText(asObject(value).$ref);
  if (!reference.startsWith('#/')) return asObject(value);
  const keys = reference
    .slice(2)
    .split('/')
    .map((key) => decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~'));
  return keys.reduce<JsonObject>((node, key) => asObject(node[key]), root);
}

function operationsOf(pathItem: JsonObject): Array<[string, JsonObject]> {
  return httpMethods
    .filter((method) => method in pathItem)
    .map((method) => [method, asObject(pathItem[method])]);
}

function collectOperations(openapi: JsonObject): RestOperation[] {
  return Object.entries(asObject(openapi.paths)).flatMap(([path, value]) => {
    const pathItem = resolveLocal(openapi, value);
    return operationsOf(pathItem).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      summary: asText(operation.summary),
      operationId: asText(operation.operationId),
      serverOverride: firstServerUrl(operation.servers) || firstServerUrl(pathItem.servers),
    }));
  });
}

function collectWebhooks(openapi: JsonObject): WebhookEvent[] {
  return Object.entries(asObject(openapi.webhooks)).map(([eventType, value]) => {
    const pathItem = resolveLocal(openapi, value);
    const [method = '', operation = {}] = operationsOf(pathItem)[0] ?? [];
    const summary = asText(operation.summary) || asText(pathItem.summary);
    const description = asText(operation.description) || asText(pathItem.description);
    // A summary that only repeats the event type says nothing; the description does.
    return {
      eventType,
      method: method.toUpperCase(),
      summary: summary === eventType ? '' : summary,
      description,
    };
  });
}

function collectMessages(channel: JsonObject): ChannelMessage[] {
  return Object.entries(asObject(channel.messages)).map(([key, value]) => {
    const message = asObject(value);
    return { name: asText(message.name) || key, summary: asText(message.summary) || asText(message.title) };
  });
}

// A channel without `servers` is available on every server of the document (AsyncAPI 3.0).
function collectChannels(asyncapi: JsonObject): EventChannel[] {
  const allServers = Object.values(asObject(asyncapi.servers));
  return Object.entries(asObject(asyncapi.channels)).map(([name, value]) => {
    const channel = asObject(value);
    const servers =
      Array.isArray(channel.servers) && channel.servers.length > 0 ? channel.servers : allServers;
    const protocols = servers.map((server) => asText(asObject(server).protocol)).filter(Boolean);
    const address = asText(channel.address) || name;
    return { name, address, protocols: [...new Set(protocols)], messages: collectMessages(channel) };
  });
}

export function collectIndexData(openapi: unknown, asyncapi: unknown): IndexData {
  const openapiRoot = asObject(openapi);
  const asyncapiRoot = asObject(asyncapi);
  return {
    restTitle: asText(asObject(openapiRoot.info).title),
    eventsTitle: asText(asObject(asyncapiRoot.info).title),
    operations: collectOperations(openapiRoot),
    channels: collectChannels(asyncapiRoot),
    webhooks: collectWebhooks(openapiRoot),
  };
}

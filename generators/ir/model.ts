/**
 * The intermediate model: plain data built once from both documents. Emitters read only this, never YAML, so a
 * test can build one by hand. Every schema reference inside it is `{ $ref: '#/components/schemas/<Name>' }` with
 * `<Name>` one of `ApiModel.schemas`.
 */

export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export interface SourceDocument {
  /** `openapi` or `asyncapi`. */
  kind: 'openapi' | 'asyncapi';
  /** Path relative to the repository root, used in banners and `@see` links. */
  file: string;
  title: string;
  version: string;
}

export interface NamedSchema {
  kind: 'schema';
  /** PascalCase identifier, unique across both documents. */
  name: string;
  /** Where the schema was defined: `<file>#<pointer>`. */
  origin: string;
  description: string | null;
  schema: JsonSchema;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string | null;
  schema: JsonSchema;
}

export interface RequestBody {
  required: boolean;
  contentType: string;
  schema: JsonSchema;
}

export interface ResponseHeader {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Response {
  /** `200`, `2XX` or `default`. */
  status: string;
  description: string;
  /** null when the response has no body. */
  contentType: string | null;
  schema: JsonSchema | null;
  headers: ResponseHeader[];
}

/** One way to authenticate: every scheme listed must hold (OpenAPI's security requirement object). */
export interface SecurityRequirement {
  schemes: Array<{ name: string; scopes: string[] }>;
}

export interface Operation {
  kind: 'operation';
  /** camelCase identifier from operationId (or method + path when there is none). */
  id: string;
  method: HttpMethod;
  path: string;
  /** camelCase resource group the client files the operation under (from its first tag or first path segment). */
  group: string;
  summary: string | null;
  description: string | null;
  /** `<file>#<pointer>` of the operation object. */
  origin: string;
  /** Alternatives: one must hold. Empty = no authentication. */
  security: SecurityRequirement[];
  parameters: Parameter[];
  requestBody: RequestBody | null;
  responses: Response[];
  /** Base URL (server variables filled with their defaults) when the operation overrides the document's servers. */
  serverUrl: string | null;
  /** The operation's `x-*` fields, for emitters that understand them. */
  extensions: Record<string, unknown>;
}

export interface Webhook {
  kind: 'webhook';
  /** The event name as the document keys it (`device.online`). */
  name: string;
  /** camelCase identifier. */
  id: string;
  method: HttpMethod;
  summary: string | null;
  origin: string;
  headers: Parameter[];
  contentType: string;
  payload: JsonSchema;
}

export interface Message {
  kind: 'message';
  /** camelCase identifier, unique within its channel. */
  id: string;
  name: string;
  title: string | null;
  contentType: string;
  payload: JsonSchema;
  headers: JsonSchema | null;
  origin: string;
  extensions: Record<string, unknown>;
}

export interface ChannelParameter {
  name: string;
  description: string | null;
}

export interface Channel {
  kind: 'channel';
  /** camelCase identifier from the channel's key. */
  id: string;
  /** The address template, such as `devices/{streamId}`; null for a channel without one. */
  address: string | null;
  title: string | null;
  description: string | null;
  /** Protocols of the servers the channel is on (`mqtt`, `mqtts`, `ws`, `wss`, `https`, `kafka`...). */
  protocols: string[];
  parameters: ChannelParameter[];
  messages: Message[];
  /** What the described application does on the channel, from the document's operations. */
  actions: Array<'send' | 'receive'>;
  origin: string;
  extensions: Record<string, unknown>;
}

export interface SecurityScheme {
  name: string;
  type: string;
  /** `bearer` for HTTP bearer schemes. */
  scheme: string | null;
  /** OAuth scopes with their descriptions. */
  scopes: Record<string, string>;
  authorizationUrl: string | null;
  tokenUrl: string | null;
  extensions: Record<string, unknown>;
}

export interface ApiModel {
  sources: SourceDocument[];
  /** The REST base URL of the OpenAPI document's first server, variables filled with their defaults, or null. */
  serverUrl: string | null;
  schemas: NamedSchema[];
  operations: Operation[];
  webhooks: Webhook[];
  channels: Channel[];
  securitySchemes: SecurityScheme[];
  /** Top-level `x-*` fields of the OpenAPI document (policies such as `x-webhook-delivery`). */
  extensions: Record<string, unknown>;
}

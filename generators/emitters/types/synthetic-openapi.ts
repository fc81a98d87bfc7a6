import type {
  ApiModel,
  Channel,
  JsonSchema,
  Message,
  Operation,
  Parameter,
  Response,
} from '../../ir/model.js';
import { pascalCase } from '../../ir/names.js';

/** Name of the component that holds an inline message payload, so every message payload has a named type. */
export function inlinePayloadName(channel: Channel, message: Message): string {
  return `${pascalCase(channel.id)}${pascalCase(message.id)}Payload`;
}

export function isSchemaRef(schema: JsonSchema): schema is { $ref: string } {
  return typeof schema === 'object' && typeof schema.$ref === 'string' && Object.keys(schema).length === 1;
}

function parameterObject(parameter: Parameter) {
  return { name: parameter.name, in: parameter.in, required: parameter.required, schema: parameter.schema };
}

function responseObject(response: Response) {
  return {
    description: response.description || response.status,
    ...(response.contentType === null
      ? {}
      : { content: { [response.contentType]: { schema: response.schema ?? {} } } }),
    ...(response.headers.length === 0
      ? {}
      : {
          headers: Object.fromEntries(
            response.headers.map((header) => [
              header.name,
              { required: header.required, schema: header.schema },
            ]),
          ),
        }),
  };
}

function operationObject(operation: Operation) {
  return {
    operationId: operation.id,
    ...(operation.summary === null ? {} : { summary: operation.summary }),
    parameters: operation.parameters.map(parameterObject),
    ...(operation.requestBody === null
      ? {}
      : {
          requestBody: {
            required: operation.requestBody.required,
            content: { [operation.requestBody.contentType]: { schema: operation.requestBody.schema } },
          },
        }),
    responses: Object.fromEntries(
      operation.responses.map((response) => [response.status, responseObject(response)]),
    ),
  };
}

/**
 * The model rendered back as one OpenAPI 3.1 document for openapi-typescript: every named schema of both documents
 * (inline AsyncAPI payloads get names), every operation and every webhook. Built from the IR, not from YAML.
 */
export function syntheticOpenapi(model: ApiModel): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = Object.fromEntries(
    model.schemas.map((named) => [named.name, named.schema]),
  );
  for (const channel of model.channels) {
    for (const message of channel.messages) {
      if (!isSchemaRef(message.payload)) schemas[inlinePayloadName(channel, message)] = message.payload;
    }
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of model.operations) {
    paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation) };
  }
  const webhooks: Record<string, Record<string, unknown>> = {};
  for (const webhook of model.webhooks) {
    webhooks[webhook.name] = {
      [webhook.method]: {
        operationId: webhook.id,
        parameters: webhook.headers.map(parameterObject),
        requestBody: { required: true, content: { [webhook.contentType]: { schema: webhook.payload } } },
        responses: { '200': { description: 'Delivered.' } },
      },
    };
  }
  const title = model.sources[0]?.title ?? 'API';
  return { openapi: '3.1.0', info: { title, version: '0' }, paths, webhooks, components: { schemas } };
}

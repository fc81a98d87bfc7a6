import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { type JSDocStructure, StructureKind, type TypeAliasDeclarationStructure } from 'ts-morph';
import type { ApiModel, Channel, Operation } from '../../ir/model.js';
import { pascalCase, propertyKey, stringLiteral } from '../../ir/names.js';
import type { Emitter, GeneratedFile } from '../generated-file.js';
import { printText, printTypeScript } from '../print.js';
import type { SymbolDeclaration } from '../symbols.js';
import { errorCatalogueStatements, findErrorCatalogue } from './error-catalogue.js';
import { factStatements } from './facts.js';
import { inlinePayloadName, isSchemaRef, syntheticOpenapi } from './synthetic-openapi.js';

const files = {
  openapi: 'types/openapi.ts',
  schemas: 'types/schemas.ts',
  operations: 'types/operations.ts',
  webhooks: 'types/webhooks.ts',
  messages: 'types/messages.ts',
  errors: 'types/errors.ts',
  facts: 'types/facts.ts',
  index: 'types/index.ts',
} as const;

function docs(description: string | null, see: string): JSDocStructure[] {
  return [
    {
      kind: StructureKind.JSDoc,
      ...(description === null ? {} : { description }),
      tags: [{ kind: StructureKind.JSDocTag, tagName: 'see', text: see }],
    },
  ];
}

function alias(
  name: string,
  type: string,
  description: string | null,
  see: string,
): TypeAliasDeclarationStructure {
  return { kind: StructureKind.TypeAlias, name, type, isExported: true, docs: docs(description, see) };
}

function schemaRefName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** The alias names this artifact exports for an operation; the client and server emitters import these. */
export function operationTypeNames(operation: Operation) {
  const base = pascalCase(operation.id);
  return { parameters: `${base}Parameters`, body: `${base}RequestBody`, responses: `${base}Responses` };
}

function operationAliases(operation: Operation): TypeAliasDeclarationStructure[] {
  const names = operationTypeNames(operation);
  const source = `operations[${stringLiteral(operation.id)}]`;
  const responses = operation.responses.map((response) => {
    const body =
      response.contentType === null
        ? 'undefined'
        : `${source}['responses'][${stringLiteral(response.status)}]['content'][${stringLiteral(response.contentType)}]`;
    return `${propertyKey(response.status)}: ${body};`;
  });
  const aliases = [
    alias(
      names.parameters,
      `${source}['parameters']`,
      `Path, query and header parameters of ${operation.id}.`,
      operation.origin,
    ),
    alias(
      names.responses,
      `{\n${responses.join('\n')}\n}`,
      `Response bodies of ${operation.id} by status.`,
      operation.origin,
    ),
  ];
  if (operation.requestBody !== null) {
    const body = `NonNullable<${source}['requestBody']>['content'][${stringLiteral(operation.requestBody.contentType)}]`;
    aliases.push(alias(names.body, body, `Request body of ${operation.id}.`, operation.origin));
  }
  return aliases;
}

function messagePayloadType(channel: Channel, message: Channel['messages'][number]): string {
  const name = isSchemaRef(message.payload)
    ? schemaRefName(message.payload.$ref)
    : inlinePayloadName(channel, message);
  return `components['schemas'][${stringLiteral(name)}]`;
}

function channelAliases(channel: Channel): TypeAliasDeclarationStructure[] {
  const base = pascalCase(channel.id);
  const parameters = channel.parameters.map((parameter) => `${propertyKey(parameter.name)}: string;`);
  const messages = channel.messages.map(
    (message) => `${propertyKey(message.id)}: ${messagePayloadType(channel, message)};`,
  );
  return [
    alias(
      `${base}Parameters`,
      `{\n${parameters.join('\n')}\n}`,
      `Parameters of the ${channel.address ?? channel.id} address.`,
      channel.origin,
    ),
    alias(
      `${base}Messages`,
      `{\n${messages.join('\n')}\n}`,
      `Payload of each message of ${channel.id}, by message id.`,
      channel.origin,
    ),
  ];
}

function declare(model: ApiModel): SymbolDeclaration[] {
  const symbol = (kind: string, id: string, file: string, exportName: string): SymbolDeclaration => ({
    artifact: 'types',
    kind,
    id,
    file,
    exportName,
  });
  return [
    symbol('module', 'openapi', files.openapi, 'components'),
    symbol('facts', 'api-policies', files.facts, 'apiPolicies'),
    symbol('facts', 'schema-patterns', files.facts, 'schemaPatterns'),
    symbol('facts', 'security-schemes', files.facts, 'securitySchemeFacts'),
    symbol('facts', 'channels', files.facts, 'channelFacts'),
    ...(findErrorCatalogue(model) === null
      ? []
      : [
          symbol('error-catalogue', 'types', files.errors, 'errorTypes'),
          symbol('error-catalogue', 'codes', files.errors, 'errorCodes'),
          symbol('error-catalogue', 'roles', files.errors, 'errorRoles'),
        ]),
    ...model.schemas.map((schema) => symbol('schema', schema.name, files.schemas, schema.name)),
    ...model.operations.flatMap((operation) => {
      const names = operationTypeNames(operation);
      return [
        symbol('operation-parameters', operation.id, files.operations, names.parameters),
        symbol('operation-responses', operation.id, files.operations, names.responses),
        ...(operation.requestBody === null
          ? []
          : [symbol('operation-body', operation.id, files.operations, names.body)]),
      ];
    }),
    ...model.webhooks.map((webhook) =>
      symbol('webhook-payload', webhook.name, files.webhooks, `${pascalCase(webhook.id)}Payload`),
    ),
    ...(model.webhooks.length === 0
      ? []
      : [symbol('webhook-payloads', 'map', files.webhooks, 'WebhookPayloads')]),
    ...model.channels.flatMap((channel) => [
      symbol('channel-parameters', channel.id, files.messages, `${pascalCase(channel.id)}Parameters`),
      symbol('channel-messages', channel.id, files.messages, `${pascalCase(channel.id)}Messages`),
    ]),
  ];
}

async function emit({ model }: { model: ApiModel }): Promise<GeneratedFile[]> {
  // The synthetic document is plain JSON built from the IR; openapi-typescript's OpenAPI3 type cannot see that.
  const ast = await openapiTS(syntheticOpenapi(model) as unknown as OpenAPI3, {
    defaultNonNullable: false,
    // JSON Schema allows any properties where a schema names none; Record<string, never> would forbid them.
    emptyObjectsUnknown: true,
    alphabetize: true,
    silent: true,
  });
  const importComponents = {
    moduleSpecifier: './openapi.js',
    namedImports: ['components'],
    isTypeOnly: true,
  };
  const output: GeneratedFile[] = [
    printText(model, files.openapi, astToString(ast)),
    printTypeScript(model, files.schemas, {
      statements: [
        { kind: StructureKind.ImportDeclaration, ...importComponents },
        ...model.schemas.map((schema) =>
          alias(
            schema.name,
            `components['schemas'][${stringLiteral(schema.name)}]`,
            schema.description,
            schema.origin,
          ),
        ),
      ],
    }),
    printTypeScript(model, files.operations, {
      statements: [
        {
          kind: StructureKind.ImportDeclaration,
          moduleSpecifier: './openapi.js',
          namedImports: ['operations'],
          isTypeOnly: true,
        },
        ...model.operations.flatMap(operationAliases),
      ],
    }),
    printTypeScript(model, files.webhooks, {
      statements: [
        {
          kind: StructureKind.ImportDeclaration,
          moduleSpecifier: './openapi.js',
          namedImports: ['webhooks'],
          isTypeOnly: true,
        },
        ...model.webhooks.map((webhook) =>
          alias(
            `${pascalCase(webhook.id)}Payload`,
            `NonNullable<webhooks[${stringLiteral(webhook.name)}][${stringLiteral(webhook.method)}]['requestBody']>['content'][${stringLiteral(webhook.contentType)}]`,
            webhook.summary,
            webhook.origin,
          ),
        ),
        alias(
          'WebhookPayloads',
          `{\n${model.webhooks.map((webhook) => `${stringLiteral(webhook.name)}: ${pascalCase(webhook.id)}Payload;`).join('\n')}\n}`,
          'The payload of each webhook event, by event name.',
          model.sources.find((source) => source.kind === 'openapi')?.file ?? '',
        ),
      ],
    }),
    printTypeScript(model, files.messages, {
      statements: [
        { kind: StructureKind.ImportDeclaration, ...importComponents },
        ...model.channels.flatMap(channelAliases),
      ],
    }),
    printTypeScript(model, files.index, {
      statements: [
        { kind: StructureKind.ExportDeclaration, moduleSpecifier: './schemas.js' },
        {
          kind: StructureKind.ExportDeclaration,
          moduleSpecifier: './openapi.js',
          namedExports: ['components', 'operations', 'paths', 'webhooks'],
          isTypeOnly: true,
        },
      ],
    }),
  ];
  output.push(printTypeScript(model, files.facts, { statements: factStatements(model) }));
  const catalogue = findErrorCatalogue(model);
  if (catalogue !== null) {
    output.push(printTypeScript(model, files.errors, { statements: errorCatalogueStatements(catalogue) }));
  }
  // A document without operations, webhooks or channels gets no empty module for them.
  const empty = new Set<string>([
    ...(model.operations.length === 0 ? [files.operations] : []),
    ...(model.webhooks.length === 0 ? [files.webhooks] : []),
    ...(model.channels.length === 0 ? [files.messages] : []),
  ]);
  return output.filter((file) => !empty.has(file.path));
}

export const typesEmitter: Emitter = { name: 'types', declare, emit };

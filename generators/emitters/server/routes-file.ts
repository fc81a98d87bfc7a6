import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import type { Operation } from '../../ir/model.js';
import { propertyKey, stringLiteral } from '../../ir/names.js';
import type { EmitContext, GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import { problemAt } from './problems.js';
import { responseSchemaKey } from './schemas-file.js';

export const routesFile = 'server/routes.ts';

/**
 * `/streams/{streamId}` as Fastify routes it: `/streams/:streamId`. A segment may hold literal text around one
 * parameter when what follows it starts with `.` or `-`, where Fastify ends a parameter name (`{feedId}.xml`); a
 * literal `:` is doubled to stay literal.
 */
function fastifyUrl(operation: Operation, context: EmitContext): string {
  return operation.path
    .split('/')
    .map((segment) => {
      const parts = /^([^{}]*)\{([A-Za-z0-9_]+)\}([.-][^{}]*)?$/.exec(segment);
      if (parts !== null) return `${(parts[1] ?? '').replaceAll(':', '::')}:${parts[2]}${parts[3] ?? ''}`;
      if (segment.includes('{') || segment.includes('}')) {
        const message = `path segment "${segment}" is not a parameter Fastify can route (one per segment, named with letters, digits and _, followed by nothing, "." or "-")`;
        context.problems.push(problemAt(operation.origin, message));
      }
      return segment.replaceAll(':', '::');
    })
    .join('/');
}

const memberAccess = (key: string) =>
  /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${stringLiteral(key)}]`;

const list = (items: readonly string[]) => `[${items.map(stringLiteral).join(', ')}]`;

function routeEntry(operation: Operation, context: EmitContext): string {
  const security = operation.security.map(
    (requirement) =>
      `{ schemes: [${requirement.schemes.map((scheme) => `{ name: ${stringLiteral(scheme.name)}, scopes: ${list(scheme.scopes)} }`).join(', ')}] }`,
  );
  const body = operation.requestBody;
  const headers = operation.parameters
    .filter((parameter) => parameter.in === 'header')
    .map((parameter) => parameter.name);
  const responses = operation.responses.map((response) => {
    const key = responseSchemaKey(operation, response, context.model);
    const contentType = response.contentType === null ? 'null' : stringLiteral(response.contentType);
    const schema = key === null ? '' : `, schema: responseSchemas${memberAccess(key)}`;
    return `${stringLiteral(response.status)}: { contentType: ${contentType}${schema} },`;
  });
  return `${propertyKey(operation.id)}: {
    operationId: ${stringLiteral(operation.id)},
    method: ${stringLiteral(operation.method.toUpperCase())},
    url: ${stringLiteral(fastifyUrl(operation, context))},
    serverUrl: ${operation.serverUrl === null ? 'null' : stringLiteral(operation.serverUrl)},
    security: [${security.join(', ')}],
    requestBody: ${body === null ? 'null' : `{ contentType: ${stringLiteral(body.contentType)}, required: ${body.required} }`},${headers.length === 0 ? '' : `\n    headerParameters: ${list(headers)},`}
    responses: {\n${responses.join('\n')}\n},
  },`;
}

/** The route table: each operation's method, Fastify URL, security alternatives, body type and responses. */
export function emitRoutesFile(context: EmitContext): GeneratedFile {
  const { model } = context;
  const usesSchemas = model.operations.some((operation) =>
    operation.responses.some((response) => responseSchemaKey(operation, response, model) !== null),
  );
  return printTypeScript(model, routesFile, {
    statements: [
      {
        kind: StructureKind.ImportDeclaration,
        moduleSpecifier: context.symbols.runtimeImport(routesFile, 'fastify-routes'),
        namedImports: ['OperationRoute'],
        isTypeOnly: true,
      },
      ...(usesSchemas
        ? [
            {
              kind: StructureKind.ImportDeclaration as const,
              moduleSpecifier: './schemas.js',
              namedImports: ['responseSchemas'],
            },
          ]
        : []),
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        declarations: [
          {
            name: 'routes',
            initializer: `{\n${model.operations.map((operation) => routeEntry(operation, context)).join('\n')}\n} as const satisfies Readonly<Record<string, OperationRoute>>`,
          },
        ],
        docs: ['Every operation with what the server needs to route, authenticate, parse and serialise it.'],
      },
    ],
  });
}

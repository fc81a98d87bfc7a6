import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import { stringLiteral } from '../../ir/names.js';
import type { EmitContext, GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import { relativeImport } from '../symbols.js';
import { rejectsUnknownQuery } from '../validators/parameter-schema.js';
import { isProtected, optionsInterface, pluginNames, validatorTable } from './plugin-parts.js';
import { type ServerFacts, serverRoleKeys } from './spec-facts.js';
import { importDeclaration, valueImports } from './structures.js';

export const pluginFile = 'server/plugin.ts';

function constant(name: string, initializer: string) {
  return {
    kind: StructureKind.VariableStatement as const,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, initializer }],
  };
}

function setupText(context: EmitContext, facts: ServerFacts): string {
  const { model, symbols } = context;
  const codes = symbols.lookup('types', 'error-catalogue', 'codes').exportName;
  const roles = symbols.lookup('types', 'error-catalogue', 'roles').exportName;
  const roleEntries = serverRoleKeys(model).map((key) => `${key}: ${roles}.${key},`);
  return `registerOperations(fastify, {
    routes,
    validators,
    handlers: options.handlers,
    authenticate: ${isProtected(model) ? 'options.authenticate' : '() => undefined'},
    catalogue: {
      codes: ${codes},
      roles: {\n${roleEntries.join('\n')}\n},
    },
    requestId: options.requestId ?? (() => newRequestId()),
    requestIdHeader,
    bodyLimit: ${facts.bodyLimit ?? 'null'},
    closedQuery: ${rejectsUnknownQuery(model)},
    renderError: options.renderError,
    operations: options.operations,
  });`;
}

/** The Fastify plugin: the route table, the precompiled validators, the catalogue and the handlers, registered. */
export function emitPluginFile(context: EmitContext, facts: ServerFacts): GeneratedFile {
  const { model, symbols } = context;
  const names = pluginNames(model);
  const validators = validatorTable(context);
  const catalogue = ['codes', 'roles'].map((id) => symbols.lookup('types', 'error-catalogue', id));
  const runtime = (module: string) => symbols.runtimeImport(pluginFile, module);
  return printTypeScript(model, pluginFile, {
    statements: [
      importDeclaration('fastify', ['FastifyInstance', 'FastifyRequest'], true),
      importDeclaration(runtime('fastify-request-id'), ['createRequestIdFactory']),
      importDeclaration(
        runtime('fastify-routes'),
        [...(isProtected(model) ? ['Authenticate'] : []), 'RenderError'],
        true,
      ),
      importDeclaration(runtime('fastify-server'), ['registerOperations']),
      ...valueImports([...catalogue, ...validators.symbols], (file) => relativeImport(pluginFile, file)),
      importDeclaration('./handlers.js', ['Handlers'], true),
      importDeclaration('./routes.js', ['routes']),
      optionsInterface(model, facts),
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ["The response header that carries each request's id (the spec's name for it)."],
        declarations: [{ name: 'requestIdHeader', initializer: stringLiteral(facts.requestIdHeader) }],
      },
      constant('validators', validators.initializer),
      constant(
        'newRequestId',
        `createRequestIdFactory(${stringLiteral(facts.requestIdPrefix)}, ${facts.requestIdLength})`,
      ),
      {
        kind: StructureKind.Function,
        name: names.plugin,
        isExported: true,
        isAsync: true,
        typeParameters: [{ name: 'Auth', default: 'unknown' }],
        parameters: [
          { name: 'fastify', type: 'FastifyInstance' },
          { name: 'options', type: `${names.options}<Auth>` },
        ],
        returnType: 'Promise<void>',
        docs: [
          'Every operation of the spec with its validators, serialiser and error envelope; give it to `fastify.register`.',
        ],
        statements: setupText(context, facts),
      },
    ],
  });
}

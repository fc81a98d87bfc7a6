import { StructureKind } from 'ts-morph';
import type { ApiModel } from '../../ir/model.js';
import type { EmitContext, Emitter, GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import type { SymbolDeclaration } from '../symbols.js';
import { findErrorCatalogue } from '../types/error-catalogue.js';
import { emitHandlersFile, handlersFile, handlerTypeNames } from './handlers-file.js';
import { emitPluginFile, pluginFile } from './plugin-file.js';
import { pluginNames } from './plugin-parts.js';
import { problemAt } from './problems.js';
import { checkRequirements } from './requirements.js';
import { emitRoutesFile, routesFile } from './routes-file.js';
import { emitSchemasFile } from './schemas-file.js';
import { serverFacts } from './spec-facts.js';

const indexFile = 'server/index.ts';

/** A server only for a spec with operations and an error envelope, which every error it renders takes. */
function isServed(model: ApiModel): boolean {
  return model.operations.length > 0 && findErrorCatalogue(model) !== null;
}

function declare(model: ApiModel): SymbolDeclaration[] {
  if (!isServed(model)) return [];
  const names = pluginNames(model);
  const symbol = (kind: string, id: string, file: string, exportName: string): SymbolDeclaration => ({
    artifact: 'server',
    kind,
    id,
    file,
    exportName,
  });
  return [
    symbol('plugin', 'plugin', pluginFile, names.plugin),
    symbol('plugin-options', 'options', pluginFile, names.options),
    symbol('handlers', 'map', handlersFile, 'Handlers'),
    symbol('route-table', 'routes', routesFile, 'routes'),
    ...model.operations.map((operation) =>
      symbol('handler', operation.id, handlersFile, handlerTypeNames(operation).handler),
    ),
  ];
}

function emit(context: EmitContext): GeneratedFile[] {
  const { model, problems } = context;
  const catalogue = findErrorCatalogue(model);
  if (model.operations.length === 0) return [];
  if (catalogue === null) {
    const file = model.sources.find((source) => source.kind === 'openapi')?.file ?? '';
    const message =
      'no schema is marked x-error-envelope; the server renders every error as that envelope, so it is not generated';
    problems.push(problemAt(file, message, 'warning'));
    return [];
  }
  if (!checkRequirements(context, catalogue)) return [];
  const facts = serverFacts(model, catalogue, problems);
  return [
    emitHandlersFile(context, facts.requestIdHeader),
    emitRoutesFile(context),
    emitSchemasFile(model, problems),
    emitPluginFile(context, facts),
    printTypeScript(model, indexFile, {
      statements: ['./handlers.js', './plugin.js', './routes.js'].map((moduleSpecifier) => ({
        kind: StructureKind.ExportDeclaration,
        moduleSpecifier,
      })),
    }),
  ];
}

/** The `server` artifact: a Fastify plugin with typed handlers, routes with response schemas, and the envelope. */
export const serverEmitter: Emitter = { name: 'server', declare, emit };

import type { ApiModel } from '../../ir/model.js';
import type { EmitContext, Emitter, GeneratedFile } from '../generated-file.js';
import type { SymbolDeclaration } from '../symbols.js';
import { findErrorCatalogue } from '../types/error-catalogue.js';
import { errorClassName, errorsFile, errorsFileOf } from './errors-file.js';
import { indexFile, indexFileOf } from './index-file.js';
import { oauthFile, oauthFileOf } from './oauth-file.js';
import { planClient } from './plan.js';
import { resourceFile } from './resource-file.js';
import { vendoredFiles } from './vendor.js';

function declare(model: ApiModel): SymbolDeclaration[] {
  const symbol = (kind: string, id: string, file: string, exportName: string): SymbolDeclaration => ({
    artifact: 'client',
    kind,
    id,
    file,
    exportName,
  });
  const plan = planClient(model);
  return [
    symbol('client', 'createClient', indexFile, 'createClient'),
    symbol('client', 'options', indexFile, 'ClientOptions'),
    symbol('error-classes', 'map', errorsFile, 'errorClasses'),
    ...(findErrorCatalogue(model)?.types ?? []).map((type) =>
      symbol('error-class', type.name, errorsFile, errorClassName(type.name)),
    ),
    ...plan.groups.map((group) => symbol('resource', group.property, group.file, group.className)),
    ...(plan.oauth === null ? [] : [symbol('oauth', 'createOAuthClient', oauthFile, 'createOAuthClient')]),
  ];
}

/**
 * The REST client: a class per resource group (`client.streams.create(...)`), typed errors from the catalogue, the
 * OAuth helper, and `createClient`. Types come from the types artifact, behaviour from `runtime/http/`; both are
 * copied into `client/` (vendor.ts), so the folder needs nothing outside it.
 */
function emit({ model, symbols, problems }: EmitContext): GeneratedFile[] {
  if (model.operations.length === 0) return [];
  const needed = model.operations.find(
    (operation) => !symbols.has('types', 'operation-responses', operation.id),
  );
  if (needed !== undefined) {
    const [file = '', pointer = ''] = needed.origin.split('#');
    problems.push({
      severity: 'error',
      file,
      pointer,
      message: 'the client artifact needs the types artifact; add "types" to the configured artifacts',
      rule: 'client/needs-types',
    });
    return [];
  }
  const plan = planClient(model);
  return [
    errorsFileOf(model, symbols),
    indexFileOf(model, symbols, plan),
    ...(plan.oauth === null ? [] : [oauthFileOf(model, symbols, plan.oauth)]),
    ...plan.groups.map((group) => resourceFile(model, symbols, group, plan.pagination)),
  ];
}

export const clientEmitter: Emitter = { name: 'client', declare, emit, complete: vendoredFiles };

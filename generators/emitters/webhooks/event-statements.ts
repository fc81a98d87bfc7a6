import {
  type ImportDeclarationStructure,
  type StatementStructures,
  StructureKind,
  VariableDeclarationKind,
  type VariableStatementStructure,
} from 'ts-morph';
import { propertyKey, stringLiteral } from '../../ir/names.js';
import type { EmitContext } from '../generated-file.js';
import { relativeImport } from '../symbols.js';

export const webhooksFile = 'webhooks/index.ts';

export function constant(
  name: string,
  initializer: string,
  docs: string[],
  options: { isExported?: boolean; type?: string } = {},
): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    isExported: options.isExported ?? true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, initializer, ...(options.type === undefined ? {} : { type: options.type }) }],
    docs,
  };
}

export function runtimeImport(
  context: EmitContext,
  module: string,
  values: string[],
  types: string[] = [],
): ImportDeclarationStructure {
  const moduleSpecifier = context.symbols.runtimeImport(webhooksFile, module);
  if (values.length === 0) {
    return { kind: StructureKind.ImportDeclaration, moduleSpecifier, namedImports: types, isTypeOnly: true };
  }
  const namedImports = [
    ...values.map((name) => ({ name })),
    ...types.map((name) => ({ name, isTypeOnly: true })),
  ].sort((a, b) => (a.name < b.name ? -1 : 1));
  return { kind: StructureKind.ImportDeclaration, moduleSpecifier, namedImports };
}

/** Imports of the payload types and, when the validators artifact declares them, of the payload validators. */
export function eventImports(context: EmitContext): ImportDeclarationStructure[] {
  const payloads = context.symbols.lookup('types', 'webhook-payloads', 'map');
  const validatorsByFile = new Map<string, string[]>();
  for (const webhook of context.model.webhooks) {
    if (!context.symbols.has('validators', 'webhook-payload', webhook.name)) continue;
    const validator = context.symbols.lookup('validators', 'webhook-payload', webhook.name);
    validatorsByFile.set(validator.file, [
      ...(validatorsByFile.get(validator.file) ?? []),
      validator.exportName,
    ]);
  }
  return [
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: relativeImport(webhooksFile, payloads.file),
      namedImports: [payloads.exportName],
      isTypeOnly: true,
    },
    ...[...validatorsByFile.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([file, names]) => ({
        kind: StructureKind.ImportDeclaration as const,
        moduleSpecifier: relativeImport(webhooksFile, file),
        namedImports: [...names].sort(),
      })),
  ];
}

/** `{ 'device.online': validateDeviceOnlineEvent, ... }`: the payload validators by event name, possibly none. */
export function validatorsInitializer(context: EmitContext): string {
  const entries = context.model.webhooks
    .filter((webhook) => context.symbols.has('validators', 'webhook-payload', webhook.name))
    .map((webhook) => {
      const validator = context.symbols.lookup('validators', 'webhook-payload', webhook.name);
      return `${propertyKey(webhook.name)}: ${validator.exportName},`;
    });
  return entries.length === 0 ? '{}' : `{\n${entries.join('\n')}\n}`;
}

/** The event name list, the union of payloads and the error class, shared by signed and unsigned modules. */
export function eventStatements(context: EmitContext, unionDocs: string): StatementStructures[] {
  const payloads = context.symbols.lookup('types', 'webhook-payloads', 'map').exportName;
  const names = context.model.webhooks.map((webhook) => `${stringLiteral(webhook.name)},`);
  return [
    {
      kind: StructureKind.ExportDeclaration,
      moduleSpecifier: context.symbols.runtimeImport(webhooksFile, 'webhook-signature'),
      namedExports: ['WebhookVerificationError', 'webhookVerificationReasons'],
    },
    constant('webhookEventNames', `[\n${names.join('\n')}\n] as const`, [
      'Every event this code was generated for.',
    ]),
    {
      kind: StructureKind.TypeAlias,
      name: 'WebhookEventName',
      type: '(typeof webhookEventNames)[number]',
      isExported: true,
    },
    {
      kind: StructureKind.TypeAlias,
      name: 'WebhookEvent',
      type: `${payloads}[WebhookEventName]`,
      isExported: true,
      docs: [unionDocs],
    },
  ];
}

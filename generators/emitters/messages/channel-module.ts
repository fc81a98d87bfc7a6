import { type StatementStructures, StructureKind } from 'ts-morph';
import type { ResolvedGeneratorConfig } from '../../config.js';
import { propertyKey, stringLiteral } from '../../ir/names.js';
import type { SymbolTable } from '../symbols.js';
import type { ChannelModuleContext } from './channel-module-context.js';
import { codecStatements } from './codec-statements.js';
import { FileImports } from './imports.js';
import type { ChannelPlan } from './plan.js';
import { constant, docs, objectLiteral, returningFunction } from './structures.js';
import { transportStatements } from './transport-statements.js';

function addressStatements({ plan, imports, ...context }: ChannelModuleContext): StatementStructures[] {
  if (plan.address === null) return [];
  const { names, channel } = plan;
  const parametersType = context.parametersType();
  const compile = imports.runtime('address-template', 'compileAddressTemplate');
  const noun = plan.style === 'topic' ? 'topic' : 'path';
  return [
    constant(
      names.template,
      `${compile}<${parametersType}>(${stringLiteral(plan.address)}, ${stringLiteral(plan.style)})`,
      { exported: false },
    ),
    returningFunction(
      names.address,
      [['parameters', parametersType]],
      'string',
      `${names.template}.build(parameters)`,
      docs(
        `The ${plan.address} ${noun}; throws AddressParameterError for a value it cannot carry.`,
        channel.origin,
      ),
    ),
    returningFunction(
      names.parseAddress,
      [['address', 'string']],
      `${parametersType} | null`,
      `${names.template}.parse(address)`,
      docs(
        `Parses a ${noun} built from ${plan.address} back into its parameters; null for any other address.`,
        channel.origin,
      ),
    ),
  ];
}

function contentTypes({ plan }: ChannelModuleContext): StatementStructures {
  const entries = plan.channel.messages.map((message): [string, string] => [
    propertyKey(message.id),
    stringLiteral(message.contentType),
  ]);
  return constant(plan.names.contentTypes, objectLiteral(entries), {
    docs: docs(`The content type of each message of ${plan.channel.id}.`, plan.channel.origin),
  });
}

/** Statements of one channel module: address helpers, codecs, then the publisher or subscriber it speaks. */
export function channelModule(plan: ChannelPlan, symbols: SymbolTable, config: ResolvedGeneratorConfig) {
  const imports = new FileImports(plan.names.file, symbols, config);
  const parametersType = () => imports.type(symbols.lookup('types', 'channel-parameters', plan.channel.id));
  const context: ChannelModuleContext = { plan, imports, symbols, parametersType };
  const statements: StatementStructures[] = [
    ...addressStatements(context),
    contentTypes(context),
    ...codecStatements(context),
    ...transportStatements(context),
  ];
  return { statements: [...imports.structures(), ...statements] };
}

export const exportAll = (moduleSpecifier: string): StatementStructures => ({
  kind: StructureKind.ExportDeclaration,
  moduleSpecifier,
});

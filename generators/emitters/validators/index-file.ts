import { type ImportDeclarationStructure, StructureKind } from 'ts-morph';
import type { EmitContext, GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import { relativeImport } from '../symbols.js';
import { type FailureCodesSource, failureCodesSource } from './failure-codes.js';
import type { ValidationPlan } from './targets.js';
import { TypeImports } from './type-imports.js';
import { compiledNamespaces, failureCodesStatement, guardStatements, targetStatement } from './wrappers.js';

function importFrom(
  moduleSpecifier: string,
  names: string[],
  isTypeOnly = false,
): ImportDeclarationStructure {
  return { kind: StructureKind.ImportDeclaration, moduleSpecifier, namedImports: names, isTypeOnly };
}

function namespaceImport(namespace: string, fromFile: string, toFile: string): ImportDeclarationStructure {
  return {
    kind: StructureKind.ImportDeclaration,
    namespaceImport: namespace,
    moduleSpecifier: relativeImport(fromFile, toFile),
  };
}

/** The helpers of runtime/ajv-errors.ts the index uses, and only those. */
function runtimeImports(plan: ValidationPlan, specifier: string): ImportDeclarationStructure[] {
  const hasGuards = plan.guards.length > 0;
  const hasParameters = plan.targets.some((target) => target.parameters);
  const hasValues = hasGuards || plan.targets.some((target) => !target.parameters);
  const values = [
    ...(hasGuards ? ['assertionFrom', 'guardFrom'] : []),
    ...(hasParameters ? ['parameterValidatorFrom'] : []),
    ...(hasValues ? ['validatorFrom'] : []),
  ];
  return [
    importFrom(specifier, values),
    importFrom(specifier, [...(hasGuards ? ['Assertion'] : []), 'FailureCodes'], true),
  ];
}

function catalogueImports(codes: FailureCodesSource, fromFile: string): ImportDeclarationStructure[] {
  if (codes.catalogue === null) return [];
  const byFile = new Map<string, string[]>();
  for (const symbol of [codes.catalogue.codes, codes.catalogue.roles]) {
    byFile.set(symbol.file, [...(byFile.get(symbol.file) ?? []), symbol.exportName]);
  }
  return [...byFile].map(([file, names]) => importFrom(relativeImport(fromFile, file), names));
}

/** `validators/index.ts`: typed validators, guards and assertions over the standalone functions. */
export function indexFile(
  context: EmitContext,
  plan: ValidationPlan,
  paths: { index: string; values: string; parameters: string },
): GeneratedFile {
  const { model, symbols } = context;
  const types = new TypeImports(symbols, paths.index);
  const body = [
    ...plan.targets.map((target) => targetStatement(target, types)),
    ...plan.guards.flatMap((guard) => guardStatements(guard, types)),
  ];
  const codes = failureCodesSource(model, symbols);
  const imports: ImportDeclarationStructure[] = [
    ...runtimeImports(plan, context.symbols.runtimeImport(paths.index, 'ajv-errors')),
    importFrom(context.symbols.runtimeImport(paths.index, 'validation-result'), ['Validator'], true),
    ...catalogueImports(codes, paths.index),
    ...types.declarations(),
    ...(plan.guards.length > 0 || plan.targets.some((target) => !target.parameters)
      ? [namespaceImport(compiledNamespaces.values, paths.index, paths.values)]
      : []),
    ...(plan.targets.some((target) => target.parameters)
      ? [namespaceImport(compiledNamespaces.parameters, paths.index, paths.parameters)]
      : []),
  ];
  return printTypeScript(model, paths.index, {
    statements: [...imports, failureCodesStatement(codes.initializer), ...body],
  });
}

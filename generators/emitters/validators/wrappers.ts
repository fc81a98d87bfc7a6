import {
  type JSDocStructure,
  StructureKind,
  VariableDeclarationKind,
  type VariableStatementStructure,
} from 'ts-morph';
import type { SchemaGuard, ValidationTarget } from './targets.js';
import type { TypeImports } from './type-imports.js';

/** Namespaces the index imports the two standalone modules under. */
export const compiledNamespaces = { values: 'compiled', parameters: 'compiledParameters' } as const;
const failureCodes = 'failureCodes';

function docs(description: string, see: string): JSDocStructure[] {
  return [
    {
      kind: StructureKind.JSDoc,
      description,
      tags: [{ kind: StructureKind.JSDocTag, tagName: 'see', text: see }],
    },
  ];
}

function exported(
  name: string,
  type: string | undefined,
  initializer: string,
  documentation: JSDocStructure[],
): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, initializer, ...(type === undefined ? {} : { type }) }],
    docs: documentation,
  };
}

export function targetStatement(target: ValidationTarget, types: TypeImports): VariableStatementStructure {
  const namespace = target.parameters ? compiledNamespaces.parameters : compiledNamespaces.values;
  const factory = target.parameters ? 'parameterValidatorFrom' : 'validatorFrom';
  return exported(
    target.exportName,
    `Validator<${types.typeOf(target.type)}>`,
    `${factory}(${namespace}.${target.compiledName}, ${failureCodes})`,
    docs(target.summary, target.origin),
  );
}

/** `validateX`, `isX` and `assertX` of one named schema, all on its one compiled function. */
export function guardStatements(guard: SchemaGuard, types: TypeImports): VariableStatementStructure[] {
  const { name, origin } = guard.schema;
  const type = types.typeOf({ kind: 'schema', id: name, member: null });
  const compiled = `${compiledNamespaces.values}.${guard.validateName}`;
  return [
    exported(
      guard.validateName,
      `Validator<${type}>`,
      `validatorFrom(${compiled}, ${failureCodes})`,
      docs(`Validates a ${name}.`, origin),
    ),
    exported(
      guard.guardName,
      undefined,
      `guardFrom<${type}>(${compiled})`,
      docs(`Whether a value is a ${name}.`, origin),
    ),
    exported(
      guard.assertName,
      `Assertion<${type}>`,
      `assertionFrom(${compiled}, ${failureCodes})`,
      docs(`Throws ValidationFailed, carrying the error detail, unless the value is a ${name}.`, origin),
    ),
  ];
}

export function failureCodesStatement(initializer: string): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: failureCodes, type: 'FailureCodes', initializer }],
    docs: [
      "What a failed validation answers with: the error catalogue's code for each role, a generic default where the spec has none.",
    ],
  };
}

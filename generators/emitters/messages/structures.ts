import {
  type FunctionDeclarationStructure,
  type JSDocStructure,
  StructureKind,
  VariableDeclarationKind,
  type VariableStatementStructure,
} from 'ts-morph';
import { commentText } from '../../ir/names.js';

/** Small builders for the structures every channel module is made of. */
export function docs(description: string, see: string): JSDocStructure[] {
  return [
    {
      kind: StructureKind.JSDoc,
      description: commentText(description) ?? '',
      tags: [{ kind: StructureKind.JSDocTag, tagName: 'see', text: see }],
    },
  ];
}

export function constant(
  name: string,
  initializer: string,
  options: { exported?: boolean; type?: string; docs?: JSDocStructure[] } = {},
): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    isExported: options.exported ?? true,
    declarations: [
      {
        kind: StructureKind.VariableDeclaration,
        name,
        initializer,
        ...(options.type ? { type: options.type } : {}),
      },
    ],
    ...(options.docs ? { docs: options.docs } : {}),
  };
}

export function returningFunction(
  name: string,
  parameters: Array<[string, string]>,
  returnType: string,
  body: string,
  functionDocs: JSDocStructure[],
): FunctionDeclarationStructure {
  return {
    kind: StructureKind.Function,
    name,
    isExported: true,
    parameters: parameters.map(([parameterName, type]) => ({ name: parameterName, type })),
    returnType,
    statements: [`return ${body};`],
    docs: functionDocs,
  };
}

/** `{ key: value, ... } as const` with keys in the order given. */
export function objectLiteral(entries: Array<[string, string]>, asConst = true): string {
  const body = entries.map(([key, value]) => `${key}: ${value},`).join('\n');
  return `{\n${body}\n}${asConst ? ' as const' : ''}`;
}

export function typeLiteral(entries: Array<[string, string]>): string {
  return `{\n${entries.map(([key, type]) => `${key}: ${type};`).join('\n')}\n}`;
}

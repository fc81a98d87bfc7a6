import {
  type ClassDeclarationStructure,
  StructureKind,
  type TypeAliasDeclarationStructure,
  VariableDeclarationKind,
} from 'ts-morph';
import type { ApiModel } from '../../ir/model.js';
import { pascalCase, propertyKey, stringLiteral } from '../../ir/names.js';
import type { GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import type { SymbolTable } from '../symbols.js';
import { relativeImport } from '../symbols.js';
import { findErrorCatalogue } from '../types/error-catalogue.js';
import { Imports } from './imports.js';
import { vendoredRuntimeFile } from './vendor.js';

export const errorsFile = 'client/errors.ts';

/**
 * The class of an error type: `invalid_request_error` → `InvalidRequestError`. `ApiError` is the base every error
 * extends, so a type that would take that name (`api_error`) is prefixed with `Service`.
 */
export function errorClassName(type: string): string {
  const name = pascalCase(type);
  const withSuffix = name.endsWith('Error') ? name : `${name}Error`;
  return withSuffix === 'ApiError' ? `Service${withSuffix}` : withSuffix;
}

const codeOf: TypeAliasDeclarationStructure = {
  kind: StructureKind.TypeAlias,
  name: 'CodeOf',
  typeParameters: ['Type extends string'],
  type: "{ [Code in keyof typeof errorCodes]: (typeof errorCodes)[Code]['type'] extends Type ? Code : never }[keyof typeof errorCodes]",
  docs: ['The catalogue codes of one error type.'],
};

/** One ApiError subclass per error type of the generated catalogue, and the map the transport builds them from. */
export function errorsFileOf(model: ApiModel, symbols: SymbolTable): GeneratedFile {
  const imports = new Imports(errorsFile, symbols);
  const apiErrorClass = imports.runtime('http/api-error', 'ApiErrorClass', true);
  const types = findErrorCatalogue(model)?.types ?? [];
  const hasCatalogue = types.length > 0 && symbols.has('types', 'error-catalogue', 'codes');
  if (hasCatalogue) {
    imports.symbol('types', 'error-catalogue', 'codes');
    imports.symbol('types', 'error-catalogue', 'types');
  }
  const apiError = hasCatalogue ? imports.runtime('http/api-error', 'ApiError') : 'ApiError';
  const classes = (hasCatalogue ? types : []).map(
    (type): ClassDeclarationStructure => ({
      kind: StructureKind.Class,
      name: errorClassName(type.name),
      isExported: true,
      extends: `${apiError}<${stringLiteral(type.name)}, CodeOf<${stringLiteral(type.name)}>>`,
      docs: [`\`${type.name}\` (HTTP ${type.status}): ${type.description}`],
    }),
  );
  const entries = (hasCatalogue ? types : []).map(
    (type) => `${propertyKey(type.name)}: ${errorClassName(type.name)},`,
  );
  const mapType = hasCatalogue
    ? `{ readonly [Type in keyof typeof errorTypes]: ${apiErrorClass} }`
    : `Readonly<Record<string, ${apiErrorClass}>>`;
  return printTypeScript(model, errorsFile, {
    statements: [
      ...imports.structures(),
      {
        kind: StructureKind.ExportDeclaration,
        namedExports: [apiError],
        moduleSpecifier: relativeImport(errorsFile, vendoredRuntimeFile('http/api-error')),
      },
      ...(hasCatalogue ? [codeOf] : []),
      ...classes,
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: [
          'The class of each error type; an envelope of a type not listed here becomes a plain ApiError.',
        ],
        declarations: [
          {
            name: 'errorClasses',
            type: mapType,
            initializer: entries.length === 0 ? '{}' : `{\n${entries.join('\n')}\n}`,
          },
        ],
      },
    ],
  });
}

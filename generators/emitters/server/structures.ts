import { type ImportDeclarationStructure, type JSDocStructure, StructureKind } from 'ts-morph';
import type { SymbolDeclaration } from '../symbols.js';

export function docs(description: string, see: string): JSDocStructure[] {
  return [
    {
      kind: StructureKind.JSDoc,
      description,
      tags: [{ kind: StructureKind.JSDocTag, tagName: 'see', text: see }],
    },
  ];
}

function importsOf(
  symbols: readonly SymbolDeclaration[],
  specifier: (file: string) => string,
  isTypeOnly: boolean,
) {
  const byFile = new Map<string, Set<string>>();
  for (const symbol of symbols)
    byFile.set(symbol.file, (byFile.get(symbol.file) ?? new Set()).add(symbol.exportName));
  return [...byFile]
    .sort(([first], [second]) => (first < second ? -1 : 1))
    .map(
      ([file, names]): ImportDeclarationStructure => ({
        kind: StructureKind.ImportDeclaration,
        moduleSpecifier: specifier(file),
        namedImports: [...names].sort(),
        isTypeOnly,
      }),
    );
}

/** One import declaration per file, names sorted, so that output does not depend on lookup order. */
export function typeImports(symbols: readonly SymbolDeclaration[], specifier: (file: string) => string) {
  return importsOf(symbols, specifier, true);
}

export function valueImports(symbols: readonly SymbolDeclaration[], specifier: (file: string) => string) {
  return importsOf(symbols, specifier, false);
}

export function importDeclaration(
  moduleSpecifier: string,
  namedImports: string[],
  isTypeOnly = false,
): ImportDeclarationStructure {
  return { kind: StructureKind.ImportDeclaration, moduleSpecifier, namedImports, isTypeOnly };
}

import path from 'node:path';
import { type ImportDeclarationStructure, StructureKind } from 'ts-morph';
import { camelCase, stringLiteral } from '../../ir/names.js';
import { relativeImport, type SymbolTable } from '../symbols.js';
import type { TypeReference } from './target-draft.js';

/**
 * Type expressions for validated values, read from the types artifact through the symbol table. Each types file is
 * imported once as a namespace (`schemas.Stream`), so equal export names in two files cannot clash. Without the
 * types artifact a value is `unknown`.
 */
export class TypeImports {
  readonly #namespaces = new Map<string, string>();

  constructor(
    private readonly symbols: SymbolTable,
    private readonly fromFile: string,
  ) {}

  typeOf(reference: TypeReference): string {
    if (!this.symbols.has('types', reference.kind, reference.id)) return 'unknown';
    const symbol = this.symbols.lookup('types', reference.kind, reference.id);
    const base = `${this.#namespaceFor(symbol.file)}.${symbol.exportName}`;
    if (reference.member === null) return base;
    const member = `${base}[${stringLiteral(reference.member)}]`;
    // openapi-typescript makes a location optional when none of its parameters is required.
    return reference.kind === 'operation-parameters' ? `NonNullable<${member}>` : member;
  }

  declarations(): ImportDeclarationStructure[] {
    return [...this.#namespaces].map(([file, namespace]) => ({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namespaceImport: namespace,
      moduleSpecifier: relativeImport(this.fromFile, file),
    }));
  }

  #namespaceFor(file: string): string {
    const known = this.#namespaces.get(file);
    if (known !== undefined) return known;
    const namespace = camelCase(path.posix.basename(file, '.ts'));
    this.#namespaces.set(file, namespace);
    return namespace;
  }
}

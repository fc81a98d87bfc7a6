import { type ImportDeclarationStructure, StructureKind } from 'ts-morph';
import { relativeImport, type SymbolTable } from '../symbols.js';
import { vendoredArtifactFile, vendoredRuntimeFile } from './vendor.js';

/** The imports of one generated file, collected while its statements are built, then rendered sorted. */
export class Imports {
  readonly #modules = new Map<string, Map<string, boolean>>();

  constructor(
    readonly fromFile: string,
    readonly symbols: SymbolTable,
  ) {}

  add(moduleSpecifier: string, name: string, typeOnly: boolean): string {
    const names = this.#modules.get(moduleSpecifier) ?? new Map<string, boolean>();
    names.set(name, (names.get(name) ?? true) && typeOnly);
    this.#modules.set(moduleSpecifier, names);
    return name;
  }

  /** Imports another artifact's symbol, from the client's own copy of its file (vendor.ts), and returns the name. */
  symbol(artifact: string, kind: string, id: string, typeOnly = true): string {
    const symbol = this.symbols.lookup(artifact, kind, id);
    const file = vendoredArtifactFile(symbol.file);
    return this.add(relativeImport(this.fromFile, file), symbol.exportName, typeOnly);
  }

  /** Imports a runtime module (`http/transport`) from the client's own copy of it (vendor.ts). */
  runtime(module: string, name: string, typeOnly = false): string {
    return this.add(relativeImport(this.fromFile, vendoredRuntimeFile(module)), name, typeOnly);
  }

  local(file: string, name: string, typeOnly = false): string {
    return this.add(relativeImport(this.fromFile, file), name, typeOnly);
  }

  structures(): ImportDeclarationStructure[] {
    return [...this.#modules.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([moduleSpecifier, names]) => {
        const sorted = [...names.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        const allTypes = sorted.every(([, typeOnly]) => typeOnly);
        return {
          kind: StructureKind.ImportDeclaration,
          moduleSpecifier,
          isTypeOnly: allTypes,
          namedImports: sorted.map(([name, typeOnly]) => ({ name, isTypeOnly: typeOnly && !allTypes })),
        };
      });
  }
}

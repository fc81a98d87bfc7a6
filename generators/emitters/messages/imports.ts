import { type ImportDeclarationStructure, StructureKind } from 'ts-morph';
import type { ResolvedGeneratorConfig } from '../../config.js';
import type { SymbolDeclaration, SymbolTable } from '../symbols.js';
import { relativeImport } from '../symbols.js';

/** Collects what one output file imports, then renders one sorted declaration per module. */
export class FileImports {
  readonly #modules = new Map<string, Map<string, boolean>>();

  constructor(
    readonly file: string,
    readonly symbols: SymbolTable,
    readonly config: Pick<ResolvedGeneratorConfig, 'outDir' | 'runtimeDir'>,
  ) {}

  /** Imports a runtime export (`codecs/index`, `jsonCodec`) and returns the name to use. */
  runtime(module: string, name: string, typeOnly = false): string {
    return this.#add(this.symbols.runtimeImport(this.file, module), name, typeOnly);
  }

  /** Imports a symbol another artifact declared (always a type here) and returns its name. */
  type(symbol: SymbolDeclaration): string {
    return this.#add(relativeImport(this.file, symbol.file), symbol.exportName, true);
  }

  #add(moduleSpecifier: string, name: string, typeOnly: boolean): string {
    const names = this.#modules.get(moduleSpecifier) ?? new Map<string, boolean>();
    names.set(name, (names.get(name) ?? true) && typeOnly);
    this.#modules.set(moduleSpecifier, names);
    return name;
  }

  structures(): ImportDeclarationStructure[] {
    return [...this.#modules]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([moduleSpecifier, names]) => {
        const sorted = [...names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
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

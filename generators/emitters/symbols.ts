import path from 'node:path';

/** What an emitter exports: `kind` and `id` say what it is (`schema`/`Stream`, `validator`/`createStream.body`). */
export interface SymbolDeclaration {
  artifact: string;
  kind: string;
  id: string;
  /** Output file relative to the output folder. */
  file: string;
  exportName: string;
}

function key(artifact: string, kind: string, id: string): string {
  return `${artifact}\u0000${kind}\u0000${id}`;
}

/** Import specifier from one output file to another (NodeNext: relative, with `.js`). */
export function relativeImport(fromFile: string, toFile: string): string {
  const relative = path.posix.relative(path.posix.dirname(fromFile), toFile).replace(/\.ts$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * Cross-file references go through here, never through hard-coded paths: an emitter asks for
 * `{ artifact: 'types', kind: 'schema', id: 'Stream' }` and gets the file and export name to import.
 */
export class SymbolTable {
  readonly #symbols = new Map<string, SymbolDeclaration>();

  constructor(
    declarations: readonly SymbolDeclaration[],
    /** Absolute output folder and runtime folder: imports between them are computed from real locations. */
    private readonly outDir: string,
    private readonly runtimeDir: string,
  ) {
    for (const declaration of declarations) {
      const id = key(declaration.artifact, declaration.kind, declaration.id);
      if (this.#symbols.has(id)) {
        throw new Error(
          `two emitters declare ${declaration.artifact} ${declaration.kind} "${declaration.id}"`,
        );
      }
      this.#symbols.set(id, declaration);
    }
  }

  has(artifact: string, kind: string, id: string): boolean {
    return this.#symbols.has(key(artifact, kind, id));
  }

  lookup(artifact: string, kind: string, id: string): SymbolDeclaration {
    const symbol = this.#symbols.get(key(artifact, kind, id));
    if (symbol === undefined) throw new Error(`no ${artifact} ${kind} "${id}" was declared`);
    return symbol;
  }

  all(artifact: string, kind: string): SymbolDeclaration[] {
    return [...this.#symbols.values()].filter(
      (symbol) => symbol.artifact === artifact && symbol.kind === kind,
    );
  }

  /** Specifier for importing a runtime module (`webhook-signature`, `http/request`) from an output file. */
  runtimeImport(fromFile: string, module: string): string {
    const fromDirectory = path.dirname(path.join(this.outDir, fromFile));
    const relative = path
      .relative(fromDirectory, path.join(this.runtimeDir, `${module}.js`))
      .split(path.sep)
      .join('/');
    return relative.startsWith('.') ? relative : `./${relative}`;
  }
}

import type { Options } from 'ajv/dist/2020.js';
import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import type { EmitContext, GeneratedFile } from '../generated-file.js';
import { printText, printTypeScript } from '../print.js';
import { type CompileEntry, standaloneModule } from './compile.js';

export interface StandaloneFiles {
  /** The module the index imports, `./standalone.js`. */
  script: string;
  /** Its declarations, `./standalone.d.ts`, so TypeScript never reads the generated JavaScript. */
  declarations: string;
}

/** One standalone module and its declaration file; nothing when there is nothing to compile. */
export function standaloneFiles(
  context: Pick<EmitContext, 'model' | 'config' | 'problems' | 'symbols'>,
  files: StandaloneFiles,
  entries: readonly CompileEntry[],
  options: Options,
): GeneratedFile[] {
  if (entries.length === 0) return [];
  const { model, problems } = context;
  const script = standaloneModule(model.schemas, entries, options, problems);
  const declarations = printTypeScript(model, files.declarations, {
    statements: [
      {
        kind: StructureKind.ImportDeclaration,
        isTypeOnly: true,
        namedImports: ['CompiledValidator'],
        moduleSpecifier: context.symbols.runtimeImport(files.declarations, 'ajv-errors'),
      },
      ...entries.map((entry) => ({
        kind: StructureKind.VariableStatement as const,
        isExported: true,
        hasDeclareKeyword: true,
        declarationKind: VariableDeclarationKind.Const,
        declarations: [{ name: entry.name, type: 'CompiledValidator' }],
      })),
    ],
  });
  return [printText(model, files.script, script), declarations];
}

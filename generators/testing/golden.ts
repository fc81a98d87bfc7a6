import { existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { ArtifactName } from '../config.js';
import { resolveConfig } from '../config.js';
import type { GeneratedFile } from '../emitters/generated-file.js';
import { generateFiles } from '../generate.js';

export const repositoryRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Generates from a golden case folder (`openapi.yaml` and/or `asyncapi.yaml` in it) into memory, as if the output
 * folder were `<case>/expected`, so the expected files import the real runtime by the same relative paths.
 */
export async function renderGoldenCase(
  caseDirectory: string,
  artifacts: ArtifactName[],
): Promise<GeneratedFile[]> {
  const documentIn = (name: string) =>
    existsSync(path.join(caseDirectory, name)) ? path.join(caseDirectory, name) : null;
  const config = resolveConfig(
    {
      openapi: documentIn('openapi.yaml'),
      asyncapi: documentIn('asyncapi.yaml'),
      outDir: path.join(caseDirectory, 'expected'),
      runtimeDir: path.join(repositoryRoot, 'runtime'),
      artifacts,
    },
    repositoryRoot,
  );
  return (await generateFiles(config)).files;
}

/** The compiler settings generated code must pass: the repository's strict settings, nothing emitted. */
const strictOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  noEmit: true,
};

/** Type-checks files on disk under strict settings; returns each diagnostic as one line. */
export function typeCheck(files: readonly string[]): string[] {
  const program = ts.createProgram({ rootNames: [...files], options: strictOptions });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (diagnostic.file === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return `${path.relative(repositoryRoot, diagnostic.file.fileName)}:${line + 1} ${message}`;
  });
}

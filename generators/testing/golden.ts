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

/**
 * Files read from disk (TypeScript's lib, @types/node, runtime/) rarely change during a test run: each is parsed once
 * per worker and its parse reused while its text is the same, as a language service shares files between projects of
 * the same settings. Parsing them again for each golden case was most of a type-check's time.
 */
const sourceFilesOnDisk = new Map<string, { text: string; sourceFile: ts.SourceFile }>();

/**
 * Type-checks generated files under strict settings, from memory (`path` → content, absolute paths) with anything
 * else (runtime, node_modules) read from disk; returns each diagnostic as one line.
 */
export function typeCheck(files: ReadonlyMap<string, string> | readonly string[]): string[] {
  const inMemory = Array.isArray(files) ? new Map<string, string>() : (files as ReadonlyMap<string, string>);
  const rootNames = Array.isArray(files) ? [...files] : [...inMemory.keys()];
  const host = ts.createCompilerHost(strictOptions);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (fileName) => inMemory.get(fileName) ?? readFile(fileName);
  host.fileExists = (fileName) => inMemory.has(fileName) || fileExists(fileName);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (directory) =>
    [...inMemory.keys()].some((file) => file.startsWith(`${directory}${path.sep}`)) ||
    (directoryExists?.(directory) ?? true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError) => {
    if (inMemory.has(fileName)) return getSourceFile(fileName, languageVersion, onError);
    const text = readFile(fileName);
    const cached = sourceFilesOnDisk.get(fileName);
    if (text === undefined) return getSourceFile(fileName, languageVersion, onError);
    if (cached?.text === text) return cached.sourceFile;
    const sourceFile = ts.createSourceFile(fileName, text, languageVersion);
    sourceFilesOnDisk.set(fileName, { text, sourceFile });
    return sourceFile;
  };
  const program = ts.createProgram({ rootNames, options: strictOptions, host });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (diagnostic.file === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return `${path.relative(repositoryRoot, diagnostic.file.fileName)}:${line + 1} ${message}`;
  });
}

/** The rendered files keyed by where they would be written, for `typeCheck`. */
export function expectedFiles(caseDirectory: string, files: readonly GeneratedFile[]): Map<string, string> {
  return new Map(files.map((file) => [path.join(caseDirectory, 'expected', file.path), file.content]));
}

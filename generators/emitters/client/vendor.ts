import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EmitContext, GeneratedFile } from '../generated-file.js';

/**
 * `generated/client/` is self-contained (issue 12, item 13): a user copies the folder into a project and it compiles
 * and runs without this repository. Its files import `./runtime/…` and `./types/…`, and this step adds those modules:
 * the runtime's source read from `runtimeDir`, the types artifact's output as rendered in the same run. Each keeps its
 * folder layout under `client/`, so the relative imports between them stay as written.
 */
export const clientFolder = 'client/';
export const vendoredRuntime = `${clientFolder}runtime/`;
const vendoredTypes = `${clientFolder}types/`;

/** Where a client file imports a runtime module (`http/transport`) or another artifact's file (`types/errors.ts`). */
export function vendoredRuntimeFile(module: string): string {
  return `${vendoredRuntime}${module}.ts`;
}
export function vendoredArtifactFile(file: string): string {
  return `${clientFolder}${file}`;
}

/** Relative specifiers of `import … from '…'` and `export … from '…'` in a TypeScript source. */
function relativeImports(content: string): string[] {
  return [...content.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map((match) => match[1] ?? '');
}

function resolve(fromFile: string, specifier: string): string {
  return path.posix.join(path.posix.dirname(fromFile), specifier).replace(/\.js$/, '.ts');
}

/** The source of a vendored file: a runtime module from disk, a types file from this run's output. */
function sourceOf(file: string, context: EmitContext, rendered: Map<string, GeneratedFile>): string {
  if (file.startsWith(vendoredRuntime)) {
    const module = file.slice(vendoredRuntime.length);
    const source = readFileSync(path.join(context.config.runtimeDir, module), 'utf8');
    return `// Copied by \`npm run generate\` from runtime/${module}. Do not edit: change runtime/ and regenerate.\n\n${source}`;
  }
  const original = rendered.get(file.slice(clientFolder.length));
  if (original === undefined || !file.startsWith(vendoredTypes)) {
    throw new Error(`the client imports ${file}, which is neither a runtime module nor a types file`);
  }
  return original.content;
}

/** The runtime and types files the client's files import, directly or through each other, as client files. */
export function vendoredFiles(context: EmitContext, files: readonly GeneratedFile[]): GeneratedFile[] {
  const rendered = new Map(files.map((file) => [file.path, file]));
  const vendored = new Map<string, GeneratedFile>();
  const pending = files.filter((file) => file.path.startsWith(clientFolder));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    for (const specifier of relativeImports(file.content)) {
      const target = resolve(file.path, specifier);
      if (rendered.has(target) || vendored.has(target)) continue;
      const copy = { path: target, content: sourceOf(target, context, rendered) };
      vendored.set(target, copy);
      pending.push(copy);
    }
  }
  return [...vendored.values()];
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The relative imports of one TypeScript file, resolved to the `.ts` files they name (type-only imports count). */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.join(path.dirname(file), specifier).replace(/\.js$/, '.ts'))
    .filter((target) => existsSync(target));
}

function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter(
      (file) => !file.split(path.sep).includes('golden') && !file.split(path.sep).includes('node_modules'),
    );
}

/**
 * Groups of files that import each other in a loop (strongly connected components of the import graph, Tarjan's
 * algorithm), each sorted, relative to `root`. A loop hides which file owns a concept, so the project keeps none.
 */
export function findImportCycles(root: string, folders: readonly string[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const folder of folders)
    for (const file of sourceFiles(path.join(root, folder))) graph.set(file, localImports(file));
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file) ?? 0);
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) visit(target);
      if (stack.includes(target)) lowest.set(file, Math.min(lowest.get(file) ?? 0, lowest.get(target) ?? 0));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1) cycles.push(component.map((member) => path.relative(root, member)).sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

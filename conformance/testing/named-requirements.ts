import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every `.ts` file under `directory`, recursively, tests excluded. */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

export interface NamedRequirements {
  /** Ids written whole as string literals. */
  ids: Set<string>;
  /** Fixed beginnings of template literals (`RULE-X-${index}` gives `RULE-X-`): they name every id they begin. */
  prefixes: string[];
}

/**
 * The requirement ids the check files name, read from their text: a cheap, static answer to "has this rule a
 * check?" (collecting the vitest tests would need a target and a vitest run).
 */
export function namedRequirements(checksDirectory: string): NamedRequirements {
  const ids = new Set<string>();
  const prefixes: string[] = [];
  for (const file of sourceFiles(checksDirectory)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/'([A-Z][A-Z0-9_]*(?:-[A-Z0-9_]+)+)'/g)) ids.add(match[1] as string);
    for (const match of text.matchAll(/`([A-Z][A-Z0-9_]*(?:-[A-Z0-9_]+)*-)\$\{/g))
      prefixes.push(match[1] as string);
  }
  return { ids, prefixes };
}

export function isNamed(id: string, named: NamedRequirements): boolean {
  return named.ids.has(id) || named.prefixes.some((prefix) => id.startsWith(prefix));
}

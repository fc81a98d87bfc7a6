import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Which top-level folders each folder's non-test code may import (ARCHITECTURE.md). Packages are always allowed. */
const allowed: Record<string, readonly string[]> = {
  runtime: ['runtime'],
  generated: ['generated', 'runtime'],
  generators: ['generators', 'runtime'],
  'spec/rules': ['spec/rules'],
  reference: ['reference', 'generated', 'runtime'],
  conformance: ['conformance', 'generated', 'runtime', 'reference/index.ts'],
  // The mutation job's session starts each mutant's references on the in-memory test store (ADR 0028, wave 13).
  'conformance/mutation': [
    'conformance',
    'generated',
    'runtime',
    'reference/index.ts',
    'reference/storage/testing/memory-store.ts',
  ],
  load: ['load', 'generated', 'runtime', 'reference/index.ts'],
  scripts: ['scripts', 'generators', 'runtime', 'generated'],
  examples: ['generated'],
};

function sourceFiles(directory: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(directory, entry);
    if (entry === 'node_modules' || entry === 'golden') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|js)$/.test(entry) && !/\.test\.ts$/.test(entry) ? [full] : [];
  });
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (match) => match[1] ?? '',
  );
  return specifiers.map((specifier) =>
    path.relative(root, path.resolve(path.dirname(file), specifier)).replace(/\.js$/, '.ts'),
  );
}

function ownerOf(relativePath: string): string | undefined {
  return Object.keys(allowed)
    .sort((a, b) => b.length - a.length)
    .find((folder) => relativePath === folder || relativePath.startsWith(`${folder}/`));
}

describe('dependency direction', () => {
  it.each(Object.keys(allowed))('%s imports only what ARCHITECTURE.md allows', (folder) => {
    const violations = sourceFiles(path.join(root, folder)).flatMap((file) => {
      const from = path.relative(root, file);
      const owner = ownerOf(from);
      return relativeImports(file)
        .filter((target) => {
          const permitted = allowed[owner ?? folder] ?? [];
          return !permitted.some((entry) => target === entry || target.startsWith(`${entry}/`));
        })
        .map((target) => `${from} → ${target}`);
    });
    expect(violations).toEqual([]);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImportCycles } from '../scripts/import-cycles.js';

const root = path.resolve(import.meta.dirname, '..');
const folders = [
  'generators',
  'generated',
  'runtime',
  'reference',
  'conformance',
  'load',
  'bench',
  'scripts',
];

describe('import graph', () => {
  it('has no files that import each other in a loop', () => {
    expect(findImportCycles(root, folders)).toEqual([]);
  });

  it('finds a loop through a type-only import', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'cycles-'));
    writeFileSync(path.join(folder, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
    writeFileSync(path.join(folder, 'b.ts'), "import { c } from './c.js';\nexport type B = typeof c;\n");
    writeFileSync(
      path.join(folder, 'c.ts'),
      "import type { A } from './a.js';\nexport const c: A | 1 = 1;\n",
    );
    writeFileSync(path.join(folder, 'd.ts'), "import { c } from './c.js';\nexport const d = c;\n");
    expect(findImportCycles(folder, ['.'])).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFiles, renderGoldenCase, typeCheck } from '../../testing/golden.js';

const cases = ['body-and-params', 'responses-and-guards', 'events-and-messages', 'json-numbers'];

describe('validators emitter (golden)', () => {
  it.each(cases)('%s', async (name) => {
    const caseDirectory = path.join(import.meta.dirname, 'golden', name);
    // The types artifact renders alongside: the validators import their value types from it.
    const files = await renderGoldenCase(caseDirectory, ['types', 'validators']);
    // The types output is kept beside the validators: golden-behaviour.test.ts runs these files, and they import it.
    for (const file of files) {
      await expect(file.content).toMatchFileSnapshot(path.join(caseDirectory, 'expected', file.path));
    }
    // The standalone JavaScript is typed by its .d.ts; only TypeScript goes to the compiler.
    const typeScript = files.filter((file) => file.path.endsWith('.ts'));
    expect(typeCheck(expectedFiles(caseDirectory, typeScript))).toEqual([]);
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFiles, renderGoldenCase, typeCheck } from '../../testing/golden.js';

const cases = ['enums-and-nullables', 'operations-and-webhooks', 'asyncapi-messages'];

describe('types emitter (golden)', () => {
  it.each(cases)('%s', async (name) => {
    const caseDirectory = path.join(import.meta.dirname, 'golden', name);
    const files = await renderGoldenCase(caseDirectory, ['types']);
    for (const file of files) {
      await expect(file.content).toMatchFileSnapshot(path.join(caseDirectory, 'expected', file.path));
    }
    expect(typeCheck(expectedFiles(caseDirectory, files))).toEqual([]);
  });
});

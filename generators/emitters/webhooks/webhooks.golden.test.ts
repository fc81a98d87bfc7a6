import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFiles, renderGoldenCase, typeCheck } from '../../testing/golden.js';

// signed-webhooks: x-webhook-delivery with names and a tolerance unlike the service's, so they must come from the spec.
// unsigned-webhooks: no x-webhook-delivery and no discriminating property: event list, union and parser only.
const cases = ['signed-webhooks', 'unsigned-webhooks'];

describe('webhooks emitter (golden)', () => {
  it.each(cases)('%s', async (name) => {
    const caseDirectory = path.join(import.meta.dirname, 'golden', name);
    const files = await renderGoldenCase(caseDirectory, ['types', 'webhooks']);
    // The types artifact has golden tests of its own: here its output is only what webhooks/ compiles against.
    for (const file of files.filter((generated) => generated.path.startsWith('webhooks/'))) {
      await expect(file.content).toMatchFileSnapshot(path.join(caseDirectory, 'expected', file.path));
    }
    expect(typeCheck(expectedFiles(caseDirectory, files))).toEqual([]);
  });
});

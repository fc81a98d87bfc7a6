import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFiles, renderGoldenCase, typeCheck } from '../../testing/golden.js';

const cases = ['crud-routes', 'errors-and-scopes', 'non-json-responses'];

describe('server emitter (golden)', () => {
  it.each(cases)('%s', async (name) => {
    const caseDirectory = path.join(import.meta.dirname, 'golden', name);
    // The types and validators the server imports render alongside, so that the expected folder compiles on its own.
    const files = await renderGoldenCase(caseDirectory, ['types', 'validators', 'server']);
    // Other artifacts have golden tests of their own: here their output is only what server/ compiles against.
    for (const file of files.filter((generated) => generated.path.startsWith('server/'))) {
      await expect(file.content).toMatchFileSnapshot(path.join(caseDirectory, 'expected', file.path));
    }
    const typeScript = files.filter((file) => file.path.endsWith('.ts'));
    expect(typeCheck(expectedFiles(caseDirectory, typeScript))).toEqual([]);
  });

  it('refuses to render without the precompiled validators it needs', async () => {
    const caseDirectory = path.join(import.meta.dirname, 'golden', 'crud-routes');
    await expect(renderGoldenCase(caseDirectory, ['types', 'server'])).rejects.toMatchObject({
      problems: expect.arrayContaining([
        expect.objectContaining({
          severity: 'error',
          message: expect.stringContaining('needs the validators artifact'),
        }),
      ]),
    });
  });
});

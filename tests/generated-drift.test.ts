import { describe, expect, it } from 'vitest';
import { loadConfigFile, resolveConfig } from '../generators/config.js';
import { generateFiles } from '../generators/generate.js';
import { repositoryRoot } from '../generators/testing/golden.js';
import { findDrift } from '../generators/write.js';

describe('generated/', () => {
  it('is what `npm run generate` gives from the spec (run it and commit when this fails)', async () => {
    const config = resolveConfig(await loadConfigFile(null, repositoryRoot), repositoryRoot);
    const { files } = await generateFiles(config);
    expect(await findDrift(files, config.outDir)).toEqual({ changed: [], missing: [], extra: [] });
  });
});

import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPgliteTemplate, pgliteTemplateVariable } from './pglite-template.js';

describe('copyPgliteTemplate', () => {
  let scratch: string;
  let template: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'pglite-template-test-'));
    template = path.join(scratch, 'template');
    await mkdir(path.join(template, 'base'), { recursive: true });
    await writeFile(path.join(template, 'PG_VERSION'), '17\n');
    await writeFile(path.join(template, 'base', 'file'), 'cluster');
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('copies the whole template into an absent or empty directory', async () => {
    const environment = { [pgliteTemplateVariable]: template };
    for (const target of [path.join(scratch, 'absent'), path.join(scratch, 'empty')]) {
      if (target.endsWith('empty')) await mkdir(target);
      await copyPgliteTemplate(target, environment);
      expect((await readdir(target)).sort()).toEqual(['PG_VERSION', 'base']);
      expect(await readFile(path.join(target, 'base', 'file'), 'utf8')).toBe('cluster');
    }
  });

  it('leaves a directory with anything in it as it is, and does nothing without the variable', async () => {
    const used = path.join(scratch, 'used');
    await mkdir(used);
    await writeFile(path.join(used, 'left-by-a-test'), '');
    await copyPgliteTemplate(used, { [pgliteTemplateVariable]: template });
    expect(await readdir(used)).toEqual(['left-by-a-test']);
    const untouched = path.join(scratch, 'untouched');
    await copyPgliteTemplate(untouched, {});
    await expect(readdir(untouched)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

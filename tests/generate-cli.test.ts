import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../generators/testing/golden.js';

const run = promisify(execFile);
const tsx = path.join(repositoryRoot, 'node_modules/.bin/tsx');
const cli = path.join(repositoryRoot, 'generators/cli.ts');
let workDirectory = '';

async function generate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(tsx, [cli, ...args], { cwd: workDirectory });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  workDirectory = await mkdtemp(path.join(repositoryRoot, '.tmp-generate-'));
  await cp(
    path.join(import.meta.dirname, 'fixtures/generate/broken-openapi.yaml'),
    path.join(workDirectory, 'broken.yaml'),
  );
  await cp(
    path.join(repositoryRoot, 'generators/emitters/types/golden/operations-and-webhooks/openapi.yaml'),
    path.join(workDirectory, 'good.yaml'),
  );
  const config = (openapi: string) =>
    `export default { openapi: '${openapi}', asyncapi: null, outDir: 'out', runtimeDir: '${path.join(repositoryRoot, 'runtime')}', artifacts: ['types'] };\n`;
  await writeFile(path.join(workDirectory, 'broken.config.ts'), config('broken.yaml'));
  await writeFile(path.join(workDirectory, 'good.config.ts'), config('good.yaml'));
});

afterAll(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

describe('npm run generate', () => {
  it('writes, then --check passes, then --check names a hand-edited file and the fixing command', async () => {
    expect((await generate('--config', 'good.config.ts')).code).toBe(0);
    expect((await generate('--config', 'good.config.ts', '--check')).code).toBe(0);
    const schemas = path.join(workDirectory, 'out/types/schemas.ts');
    await writeFile(schemas, `${await readFile(schemas, 'utf8')}// edited by hand\n`);
    const check = await generate('--config', 'good.config.ts', '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('changed: types/schemas.ts');
    expect(check.stderr).toContain('npm run generate');
  });

  it('lists every problem of a broken spec with its pointer and leaves the output untouched', async () => {
    const before = await readFile(path.join(workDirectory, 'out/types/schemas.ts'), 'utf8');
    const result = await generate('--config', 'broken.config.ts');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /broken\.yaml#\/paths\/~1things\/get\/responses\/200\/content\/application~1json\/schema .*\[no-unresolved-refs\]/,
    );
    expect(result.stderr).toMatch(/nowhere\.yaml/);
    expect(result.stderr).toMatch(/#\/components\/schemas\/Thing\/properties\/id\/type/);
    expect(result.stderr).toMatch(/broken\.yaml#\/paths\/~1things\/get\/parameters\/0 .*cookie/);
    expect(result.stderr).toContain('out/ was left untouched');
    expect(await readFile(path.join(workDirectory, 'out/types/schemas.ts'), 'utf8')).toBe(before);
  });

  it('refuses an unsupported construct with its pointer', async () => {
    const spec = (await readFile(path.join(workDirectory, 'broken.yaml'), 'utf8'))
      .replace("$ref: '#/components/schemas/Missing'", "$ref: '#/components/schemas/Thing'")
      .replace("$ref: './nowhere.yaml'", "$ref: '#/components/schemas/Thing'")
      .replace('type: strin', 'type: string');
    await writeFile(path.join(workDirectory, 'broken.yaml'), spec);
    const result = await generate('--config', 'broken.config.ts');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /broken\.yaml#\/paths\/~1things\/get\/parameters\/0 parameter "session" in cookie is not supported/,
    );
  });
});

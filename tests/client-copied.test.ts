// Issue 12, item 13: generated/client is self-contained. Copied alone into a project outside this repository (beside
// the README's example, examples/client.ts), it type-checks with tsc under strict settings with nothing but its own
// files and @types/node, and the compiled example runs against a started reference with plain Node: no tsx, no
// runtime/ or generated/types/ of this repository. (tests/reference-restart.test.ts runs the same example, OAuth
// included, in place against `npm start`.)
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, start } from '../reference/index.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    outDir: 'out',
  },
  include: ['generated/client/**/*.ts', 'examples/*.ts'],
};

// Opt-in (TELEMETRY_CLIENT_COPY=1, set by .ci/run): tsc over the copied types takes 15 to 60 s on this machine.
const describeOptIn = process.env.TELEMETRY_CLIENT_COPY === '1' ? describe : describe.skip;

describeOptIn('generated/client copied into another project', () => {
  let project: string;
  let dataDir: string;
  let service: RunningService;

  beforeAll(async () => {
    // Outside the repository: no node_modules or tsconfig of ours up the tree.
    project = await mkdtemp(path.join(tmpdir(), 'copied-client-'));
    await cp(path.join(root, 'generated/client'), path.join(project, 'generated/client'), {
      recursive: true,
    });
    await mkdir(path.join(project, 'examples'));
    await cp(path.join(root, 'examples/client.ts'), path.join(project, 'examples/client.ts'));
    await mkdir(path.join(project, 'node_modules/@types'), { recursive: true });
    await symlink(
      path.join(root, 'node_modules/@types/node'),
      path.join(project, 'node_modules/@types/node'),
    );
    await writeFile(path.join(project, 'package.json'), '{ "type": "module", "private": true }\n');
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    dataDir = await mkdtemp(path.join(tmpdir(), 'copied-client-data-'));
    service = await start({ dataDir });
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    await Promise.all([project, dataDir].map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('type-checks alone, and the compiled README example runs against the reference', async () => {
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const compiled = await run(process.execPath, [tsc, '-p', project], { cwd: project }).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout, stderr: error.stderr }),
    );
    expect(`${compiled.stdout}${compiled.stderr}`).toBe('');

    const key = service.seeded?.accounts.paid.keys.secret.key ?? '';
    const example = await run(process.execPath, [path.join(project, 'out/examples/client.js')], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', TELEMETRY_BASE_URL: service.urls.baseUrl, TELEMETRY_API_KEY: key },
    });
    expect(example.stdout).toMatch(/found stm_\S+ \(Pump 7\) while listing/);
    expect(example.stdout).toMatch(/not found: 404 resource_missing \(request \S+\)/);
  }, 300_000);
});

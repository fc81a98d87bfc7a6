// npm run conformance -- --bail (the mutation job's test command, ADR 0028): the first failed check ends the run, so a
// killed mutant costs the time to that check. Shown against a deployment that answers 404 to everything.
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cleanEnvironment, runTsx } from '../conformance/testing/run-tsx.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const notFound = JSON.stringify({
  error: { type: 'invalid_request_error', code: 'resource_missing', message: 'nothing here' },
});
const server = createServer((_request, response) => {
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(notFound);
});
let reports: string;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  reports = await mkdtemp(path.join(tmpdir(), 'conformance-bail-'));
});

afterAll(async () => {
  server.close();
  await rm(reports, { recursive: true, force: true });
});

/** Two check files, the first of which fails at once against this deployment. */
async function run(extra: string[]) {
  const { port } = server.address() as AddressInfo;
  const reportDir = path.join(reports, extra.length === 0 ? 'whole' : 'bail');
  const args = [
    '--base-url',
    `http://127.0.0.1:${port}/v2`,
    '--paid-key',
    'tlm_sk_x',
    '--report-dir',
    reportDir,
  ];
  const finished = await runTsx(root, ['conformance/cli.ts', ...args, ...extra, '10-create', '20-rest-pag'], {
    environment: cleanEnvironment(),
    timeoutMilliseconds: 90_000,
  });
  const covered = /coverage: (\d+) of \d+ requirements/.exec(finished.stdout)?.[1];
  return { ...finished, covered: Number(covered) };
}

describe('npm run conformance -- --bail', () => {
  it('ends at the first failed check, leaving out the files after it, and exits 1', async ({ expect }) => {
    const [whole, bailed] = await Promise.all([run([]), run(['--bail'])]);
    expect(whole.exitCode).toBe(1);
    expect(bailed.exitCode).toBe(1);
    expect(bailed.stdout).toContain('--bail: stopped at the first failed check');
    expect(whole.stdout).not.toContain('--bail');
    // The second file's requirements ran (and failed) without --bail, and never ran with it.
    expect(whole.covered).toBeGreaterThan(0);
    expect(bailed.covered).toBeGreaterThan(0);
    expect(bailed.covered).toBeLessThan(whole.covered);
  });
});

// npm run conformance as a user meets it: --help, and one-line refusals of bad input (exit 2) that leave nothing running.
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { inputs } from '../conformance/harness/inputs.js';
import { cleanEnvironment, runTsx } from '../conformance/testing/run-tsx.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function conformance(args: string[], environment: NodeJS.ProcessEnv = {}) {
  return runTsx(root, ['conformance/cli.ts', ...args], {
    environment: cleanEnvironment(environment),
    timeoutMilliseconds: 30_000,
  });
}

async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

// Each case is its own process, so they run side by side.
describe.concurrent('npm run conformance', () => {
  it('--help lists every flag with its environment variable and exits 0', async ({ expect }) => {
    const { exitCode, stdout } = await conformance(['--help']);
    expect(exitCode).toBe(0);
    for (const [flag, variable] of inputs) expect(stdout).toMatch(new RegExp(`--${flag} +${variable} `));
  });

  it('refuses an unknown flag with exit code 2', async ({ expect }) => {
    const { exitCode, stderr } = await conformance(['--bogus', 'x']);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(/^conformance: .*bogus/m);
  });

  it('refuses a bad profile before starting anything, and ends (exit 2)', async ({ expect }) => {
    const { exitCode, stderr } = await conformance(['--profile', 'strict']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('conformance: --profile must be documented or full, not "strict"');
  });

  it('takes a flag before its environment variable, and the variable without the flag', async ({
    expect,
  }) => {
    const flagWins = await conformance(['--profile', 'from-flag'], { TELEMETRY_PROFILE: 'from-environment' });
    expect(flagWins.stderr).toContain('not "from-flag"');
    const environmentRead = await conformance([], { TELEMETRY_PROFILE: 'from-environment' });
    expect(environmentRead.stderr).toContain('not "from-environment"');
  });

  it('refuses a deployment without a paid key rather than failing every check for want of one', async ({
    expect,
  }) => {
    const { exitCode, stderr } = await conformance(['--base-url', 'http://127.0.0.1:9/v2']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('conformance: --paid-key (TELEMETRY_PAID_SECRET_KEY) is needed with --base-url');
  });

  it('refuses a base URL that is not a URL or does not answer, in one line without a stack', async ({
    expect,
  }) => {
    const notUrl = await conformance(['--base-url', 'not a url', '--paid-key', 'tlm_sk_x']);
    expect(notUrl.exitCode).toBe(2);
    expect(notUrl.stderr).toContain('conformance: --base-url is not a URL: not a url');
    const port = await closedPort();
    const unreachable = await conformance(['--paid-key', 'tlm_sk_x'], {
      TELEMETRY_BASE_URL: `http://127.0.0.1:${port}/v2`,
    });
    expect(unreachable.exitCode).toBe(2);
    expect(unreachable.stderr).toMatch(
      /conformance: cannot reach http:\/\/127\.0\.0\.1:\d+\/v2 \(ECONNREFUSED\)/,
    );
    expect(unreachable.stderr).not.toMatch(/^\s+at /m);
  });
});

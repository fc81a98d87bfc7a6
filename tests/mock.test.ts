// Starts the Prism mock with `npm run mock` and checks it serves the spec, then that SIGTERM to npm's pid alone stops
// everything (issue 12, item 15).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

async function findFreePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

async function waitUntilAnswering(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`mock exited with ${child.exitCode}:\n${output()}`);
    try {
      await fetch(baseUrl, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`mock did not answer in time:\n${output()}`);
}

// Signal 0 only asks whether any process of the group still exists.
function groupIsAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

// tsx's esbuild helper notices its parent is gone a moment after tsx itself exits.
async function waitForGroupToEnd(groupId: number): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt++) {
    if (!groupIsAlive(groupId)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('npm run mock', () => {
  let child: ChildProcess;
  let baseUrl = '';
  let output = '';

  beforeAll(async () => {
    const port = await findFreePort();
    baseUrl = `http://127.0.0.1:${port}`;
    // Own process group, so afterAll can take down npm, the script and Prism together if a test fails.
    child = spawn('npm', ['run', 'mock', '--', '--port', String(port)], {
      cwd: repositoryRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await waitUntilAnswering(baseUrl, child, () => output);
  });

  afterAll(() => {
    if (child?.pid !== undefined && groupIsAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  });

  it('creates a stream with a bearer key', async () => {
    const response = await fetch(`${baseUrl}/streams`, {
      method: 'POST',
      headers: { Authorization: 'Bearer tlm_sk_test', 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Pump 7' }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { object?: unknown; id?: unknown };
    expect(body.object).toBe('stream');
    expect(String(body.id)).toMatch(/^stm_/);
  });

  it('refuses a request without Authorization', async () => {
    const response = await fetch(`${baseUrl}/streams`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Pump 7' }),
    });
    expect(response.status).toBe(401);
  });

  it("stops on SIGTERM to npm's pid and leaves nothing running or listening", async () => {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
    expect(child.pid !== undefined && (await waitForGroupToEnd(child.pid))).toBe(true);
    await expect(fetch(baseUrl, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
  });
});

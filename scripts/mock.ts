// `npm run mock`: serves spec/openapi.yaml with Prism on 127.0.0.1 (port: --port, MOCK_PORT, else 4010).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { bundleOpenApi, DocumentError, displayPath, inputProblemMessage } from './docs/load-documents.js';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const prismBinary = join(repositoryRoot, 'node_modules/.bin/prism');
const host = '127.0.0.1';

function readOptions(): { specPath: string; port: number } {
  const { values } = parseArgs({ options: { port: { type: 'string' }, spec: { type: 'string' } } });
  const portText = values.port ?? process.env.MOCK_PORT ?? '4010';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new DocumentError(`invalid port: ${portText}`);
  const specPath =
    values.spec === undefined ? join(repositoryRoot, 'spec/openapi.yaml') : resolve(values.spec);
  if (!existsSync(specPath)) throw new DocumentError(`input file not found: ${displayPath(specPath)}`);
  return { specPath, port };
}

// Prism resolves external files on its own, but one bundled file makes it see exactly what Redoc renders.
async function writeBundle(specPath: string): Promise<string> {
  const text = stringify(await bundleOpenApi(specPath));
  // Synchronous from here on, so no signal can land between creating the folder and arranging its removal.
  const directory = mkdtempSync(join(tmpdir(), 'openapi-mock-'));
  process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
  const bundlePath = join(directory, 'openapi.yaml');
  writeFileSync(bundlePath, text);
  return bundlePath;
}

function announceWhenListening(child: ChildProcess, port: number): void {
  if (!child.stdout) return;
  let announced = false;
  createInterface({ input: child.stdout }).on('line', (line) => {
    console.log(line);
    if (!announced && line.includes('Prism is listening')) {
      announced = true;
      console.log(`mock: ready at http://${host}:${port}`);
    }
  });
}

let prism: ChildProcess | undefined;
// Forward instead of dying, so Prism stops first and the exit handler removes the temp folder.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => (prism ? prism.kill(signal) : process.exit(0)));
}

async function main(): Promise<void> {
  const { specPath, port } = readOptions();
  const bundlePath = await writeBundle(specPath);
  const child = spawn(prismBinary, ['mock', bundlePath, '-h', host, '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  prism = child;
  announceWhenListening(child, port);
  child.on('error', (error) => {
    console.error(`mock: cannot start prism: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    // A stop we asked for is a clean end; anything else passes Prism's failure on.
    process.exit(signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : (code ?? 1));
  });
}

main().catch((error: unknown) => {
  const message = inputProblemMessage(error);
  console.error(message === undefined ? error : `mock: ${message}`);
  process.exitCode = 1;
});

// `npm run docs`: builds site/ (index.html, rest.html, events.html) that works offline from file://.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { collectIndexData } from './docs/collect-index-data.js';
import {
  bundleOpenApi,
  DocumentError,
  displayPath,
  inputProblemMessage,
  parseAsyncApi,
} from './docs/load-documents.js';
import { buildRedocPage } from './docs/redoc-page.js';
import { renderIndex } from './docs/render-index.js';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

interface BuildOptions {
  outputDirectory: string;
  openapiPath: string;
  asyncapiPath: string;
}

// Defaults live in the repository; paths given on the command line are taken from the caller's directory.
function readOptions(): BuildOptions {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, openapi: { type: 'string' }, asyncapi: { type: 'string' } },
  });
  const pick = (given: string | undefined, fallback: string): string =>
    given === undefined ? join(repositoryRoot, fallback) : resolve(given);
  return {
    outputDirectory: pick(values.out, 'site'),
    openapiPath: pick(values.openapi, 'spec/openapi.yaml'),
    asyncapiPath: pick(values.asyncapi, 'spec/asyncapi.yaml'),
  };
}

async function main(): Promise<void> {
  const options = readOptions();
  for (const input of [options.openapiPath, options.asyncapiPath]) {
    if (!existsSync(input)) throw new DocumentError(`input file not found: ${displayPath(input)}`);
  }
  // Read both documents first, so a broken input fails fast and leaves no half-built site.
  const [openapi, asyncapi] = await Promise.all([
    bundleOpenApi(options.openapiPath),
    parseAsyncApi(options.asyncapiPath),
  ]);
  await mkdir(options.outputDirectory, { recursive: true });
  await Promise.all([
    buildRedocPage(options.openapiPath, join(options.outputDirectory, 'rest.html')),
    buildRedocPage(options.asyncapiPath, join(options.outputDirectory, 'events.html')),
  ]);
  const html = await renderIndex(collectIndexData(openapi, asyncapi));
  await writeFile(join(options.outputDirectory, 'index.html'), html);
  console.log(
    `build-docs: wrote index.html, rest.html, events.html to ${displayPath(options.outputDirectory)}`,
  );
}

main().catch((error: unknown) => {
  const message = inputProblemMessage(error);
  console.error(message === undefined ? error : `build-docs: ${message}`);
  process.exitCode = 1;
});

// Renders one document to a single HTML file with Redocly's Redoc (OpenAPI and AsyncAPI alike).
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DocumentError } from './load-documents.js';

const redoclyBinary = fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url));
const runFile = promisify(execFile);

// Redoc's sidebar shows a Redocly logo fetched from a CDN even with --inlineBundle; inline a local one.
const remoteLogo = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const localLogo = `data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' width='64' height='16'><text x='0' y='12' font-size='12' font-family='sans-serif'>Redocly</text></svg>",
)}`;
// A guard for readers: whatever a later Redoc adds, the page cannot load anything from the network.
const offlinePolicy = `<meta http-equiv="Content-Security-Policy" content="default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:">`;

export function makeOffline(html: string): string {
  return html.replace(remoteLogo, localLogo).replace(/<head>/i, (head) => `${head}\n  ${offlinePolicy}`);
}

function lastLines(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !/[║╔╚]/.test(line));
  return lines.slice(-3).join(' | ');
}

export async function buildRedocPage(input: string, output: string): Promise<void> {
  const environment = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const argumentsList = ['build-docs', input, '--inlineBundle', '-o', output];
  try {
    await runFile(redoclyBinary, argumentsList, { env: environment, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr =
      typeof error === 'object' && error !== null && 'stderr' in error ? String(error.stderr) : '';
    throw new DocumentError(`redocly build-docs failed for ${input}: ${lastLines(stderr) || String(error)}`);
  }
  await writeFile(output, makeOffline(await readFile(output, 'utf8')));
}

// Loads the two documents with their $refs resolved, so docs and mock see what Redoc and Prism see.
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';

/** An error about the inputs: reported as one line, without a stack. */
export class DocumentError extends Error {}

/** The one-line message for a bad input or command line; undefined for anything else (a bug, keep its stack). */
export function inputProblemMessage(error: unknown): string | undefined {
  if (error instanceof DocumentError) return error.message;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return code.startsWith('ERR_PARSE_ARGS_') && error instanceof Error ? error.message : undefined;
}

/** A path as the user would type it: relative when inside the current directory. */
export function displayPath(path: string): string {
  const fromHere = relative(process.cwd(), path);
  return fromHere === '' ? '.' : fromHere.startsWith('..') ? path : fromHere;
}

const where = (pointer: string | undefined): string => (pointer ? ` (at ${pointer})` : '');
const errorSeverity = 0; // DiagnosticSeverity.Error in @asyncapi/parser

/** OpenAPI with external files folded into components; internal refs are kept. */
export async function bundleOpenApi(path: string): Promise<unknown> {
  // Imported here: Redocly and the AsyncAPI parser take seconds to load, which a refused input should not pay.
  const { bundleDocument, loadRedoclyConfig } = await import('../../generators/load/redocly.js');
  const { document, problems } = await bundleDocument(path, await loadRedoclyConfig(null), process.cwd());
  const firstError = problems[0];
  if (firstError !== undefined || document === null) {
    const detail =
      firstError === undefined
        ? 'not an OpenAPI document'
        : `${firstError.message}${where(firstError.pointer)}`;
    throw new DocumentError(`${displayPath(path)}: ${detail}`);
  }
  return document;
}

/** AsyncAPI as plain JSON with every $ref replaced by its target. */
export async function parseAsyncApi(path: string): Promise<unknown> {
  const { Parser } = await import('@asyncapi/parser');
  const { document, diagnostics } = await new Parser().parse(await readFile(path, 'utf8'), { source: path });
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === errorSeverity);
  if (!document || errors.length > 0) {
    const detail = errors.map((diagnostic) => `${diagnostic.message}${where(diagnostic.path.join('/'))}`);
    throw new DocumentError(
      `${displayPath(path)}: ${detail.slice(0, 3).join('; ') || 'not a valid AsyncAPI document'}`,
    );
  }
  return document.json();
}

import { resolve } from 'node:path';
import { fromFile, Parser } from '@asyncapi/parser';
import { assertFileExists } from './input-file.js';

export type AsyncApiSeverity = 'error' | 'warning' | 'info' | 'hint';

export interface AsyncApiProblem {
  code: string;
  message: string;
  /** JSON pointer into the document (or the referenced file named by `source`). */
  pointer: string;
  severity: AsyncApiSeverity;
  source: string | undefined;
  /** 1-based, as editors count. */
  line: number;
  column: number;
}

// Spectral's DiagnosticSeverity: 0 error, 1 warning, 2 information, 3 hint.
const SEVERITY_NAMES: readonly AsyncApiSeverity[] = ['error', 'warning', 'info', 'hint'];

function toPointer(path: readonly (string | number)[]): string {
  return `#/${path.map((segment) => String(segment).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

/** Parses and validates the AsyncAPI document; relative $refs resolve against its own folder. */
export async function lintAsyncApi(asyncapiPath: string): Promise<AsyncApiProblem[]> {
  assertFileExists(asyncapiPath, 'AsyncAPI document');
  const { diagnostics } = await fromFile(new Parser(), resolve(asyncapiPath)).parse();
  return diagnostics.map((diagnostic) => ({
    code: String(diagnostic.code),
    message: diagnostic.message,
    pointer: toPointer(diagnostic.path),
    severity: SEVERITY_NAMES[diagnostic.severity] ?? 'error',
    source: diagnostic.source,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
  }));
}

/** Errors and warnings fail the lint; information and hints are printed only. */
export function isFailing(problem: AsyncApiProblem): boolean {
  return problem.severity === 'error' || problem.severity === 'warning';
}

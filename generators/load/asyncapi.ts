import path from 'node:path';
import { fromFile, Parser } from '@asyncapi/parser';
import { formatJsonPointer } from '../../runtime/json-pointer.js';
import type { Problem } from '../problems.js';

/** AsyncAPI diagnostics (Spectral severities: 0 error, 1 warning, 2 information, 3 hint) as problems. */
export async function validateAsyncapi(file: string, rootDir: string): Promise<Problem[]> {
  const { diagnostics } = await fromFile(new Parser(), path.resolve(file)).parse();
  return diagnostics
    .filter((diagnostic) => diagnostic.severity <= 1)
    .map((diagnostic) => ({
      severity: diagnostic.severity === 0 ? 'error' : 'warning',
      file: path.relative(
        rootDir,
        diagnostic.source && path.isAbsolute(diagnostic.source) ? diagnostic.source : file,
      ),
      pointer: formatJsonPointer(diagnostic.path),
      message: diagnostic.message,
      rule: `asyncapi/${String(diagnostic.code)}`,
    }));
}

import { existsSync, statSync } from 'node:fs';
import { relative } from 'node:path';

/** A user error (a path that does not name a file): the CLI prints its message as one line. */
export class InputFileError extends Error {
  override name = 'InputFileError';
}

export function assertFileExists(filePath: string, description: string): void {
  if (!existsSync(filePath) || !statSync(filePath).isFile()) {
    throw new InputFileError(`${description} not found: ${relative(process.cwd(), filePath)}`);
  }
}

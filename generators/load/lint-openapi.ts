import { type Config, lint, type NormalizedProblem } from '@redocly/openapi-core';
import { assertFileExists } from './input-file.js';

/** Lints an OpenAPI document with a loaded Redocly config; problems listed in a lint-ignore file are dropped. */
export async function lintOpenApi(openapiPath: string, config: Config): Promise<NormalizedProblem[]> {
  assertFileExists(openapiPath, 'OpenAPI document');
  const problems = await lint({ ref: openapiPath, config });
  return problems.filter((problem) => !problem.ignored);
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedGeneratorConfig } from '../config.js';
import type { ModelInput } from '../ir/build-model.js';
import type { Problem } from '../problems.js';
import { validateAsyncapi } from './asyncapi.js';
import { bundleDocument, lintOpenapi, loadRedoclyConfig } from './redocly.js';
import { collectRefOrigins } from './ref-origins.js';

function missingFile(file: string, rootDir: string): Problem {
  return {
    severity: 'error',
    file: path.relative(rootDir, file),
    pointer: '',
    message: 'file not found',
    rule: 'load/missing-file',
  };
}

/**
 * The load stage: lint and bundle the OpenAPI document, validate and bundle the AsyncAPI document. Every problem of
 * both is collected; the documents are returned only when there was no error.
 */
export async function loadSpecs(
  config: ResolvedGeneratorConfig,
): Promise<{ input: ModelInput; problems: Problem[] }> {
  const { rootDir } = config;
  const problems: Problem[] = [];
  const redoclyConfig = await loadRedoclyConfig(config.lintConfigFile);
  const input: ModelInput = { openapi: null, asyncapi: null };
  const [openapiFile, asyncapiFile] = [config.openapi, config.asyncapi];
  const lintProblems =
    openapiFile !== null && existsSync(openapiFile) ? lintOpenapi(openapiFile, redoclyConfig, rootDir) : null;
  const asyncProblems =
    asyncapiFile !== null && existsSync(asyncapiFile) ? validateAsyncapi(asyncapiFile, rootDir) : null;
  if (openapiFile !== null) {
    if (lintProblems === null) problems.push(missingFile(openapiFile, rootDir));
    else {
      problems.push(...(await lintProblems));
      const bundled = await bundleDocument(openapiFile, redoclyConfig, rootDir);
      problems.push(
        ...bundled.problems.filter((problem) => !problems.some((known) => sameProblem(known, problem))),
      );
      if (bundled.document !== null) {
        input.openapi = {
          file: path.relative(rootDir, openapiFile),
          document: bundled.document,
          origins: collectRefOrigins(openapiFile, rootDir),
        };
      }
    }
  }
  if (asyncapiFile !== null) {
    if (asyncProblems === null) problems.push(missingFile(asyncapiFile, rootDir));
    else {
      problems.push(...(await asyncProblems));
      const bundled = await bundleDocument(asyncapiFile, redoclyConfig, rootDir);
      problems.push(
        ...bundled.problems.filter((problem) => !problems.some((known) => sameProblem(known, problem))),
      );
      if (bundled.document !== null) {
        input.asyncapi = {
          file: path.relative(rootDir, asyncapiFile),
          document: bundled.document,
          origins: collectRefOrigins(asyncapiFile, rootDir),
        };
      }
    }
  }
  return { input, problems };
}

function sameProblem(a: Problem, b: Problem): boolean {
  return a.file === b.file && a.pointer === b.pointer && a.message === b.message;
}

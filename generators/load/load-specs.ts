import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@redocly/openapi-core';
import type { ResolvedGeneratorConfig } from '../config.js';
import type { ModelInput } from '../ir/build-model.js';
import type { JsonObject } from '../ir/json.js';
import type { Problem } from '../problems.js';
import { type AsyncApiProblem, isFailing, lintAsyncApi } from './lint-asyncapi.js';
import { lintOpenApi } from './lint-openapi.js';
import { bundleDocument, loadRedoclyConfig, problemFromRedocly } from './redocly.js';
import { collectRefOrigins } from './ref-origins.js';

interface LoadedDocument {
  file: string;
  document: JsonObject;
  origins: Map<string, string>;
}

function asProblem(problem: AsyncApiProblem, file: string, rootDir: string): Problem {
  return {
    severity: problem.severity === 'error' ? 'error' : 'warning',
    file: path.relative(rootDir, problem.source ?? file),
    pointer: problem.pointer.replace(/^#/, ''),
    message: problem.message,
    rule: `asyncapi/${problem.code}`,
  };
}

/** Validates one document with `validate`, then bundles it; the bundle's own errors are added when new. */
async function loadDocument(
  file: string,
  redoclyConfig: Config,
  rootDir: string,
  validate: (file: string) => Promise<Problem[]>,
  problems: Problem[],
): Promise<LoadedDocument | null> {
  if (!existsSync(file)) {
    problems.push({
      severity: 'error',
      file: path.relative(rootDir, file),
      pointer: '',
      message: 'file not found',
      rule: 'load/missing-file',
    });
    return null;
  }
  const found = await validate(file);
  const bundled = await bundleDocument(file, redoclyConfig, rootDir);
  const isKnown = (problem: Problem) =>
    found.some(
      (known) =>
        known.file === problem.file && known.pointer === problem.pointer && known.message === problem.message,
    );
  problems.push(...found, ...bundled.problems.filter((problem) => !isKnown(problem)));
  if (bundled.document === null) return null;
  return {
    file: path.relative(rootDir, file),
    document: bundled.document,
    origins: collectRefOrigins(file, rootDir),
  };
}

/**
 * The load stage: lint and bundle the OpenAPI document, validate and bundle the AsyncAPI document. Every problem of
 * both is collected; the caller stops before the IR when any of them is an error.
 */
export async function loadSpecs(
  config: ResolvedGeneratorConfig,
): Promise<{ input: ModelInput; problems: Problem[] }> {
  const { rootDir } = config;
  const problems: Problem[] = [];
  const redoclyConfig = await loadRedoclyConfig(config.lintConfigFile);
  const lintRest = async (file: string) =>
    (await lintOpenApi(file, redoclyConfig)).map((problem) => problemFromRedocly(problem, rootDir));
  const validateEvents = async (file: string) =>
    (await lintAsyncApi(file)).filter(isFailing).map((problem) => asProblem(problem, file, rootDir));
  const [openapi, asyncapi] = await Promise.all([
    config.openapi === null ? null : loadDocument(config.openapi, redoclyConfig, rootDir, lintRest, problems),
    config.asyncapi === null
      ? null
      : loadDocument(config.asyncapi, redoclyConfig, rootDir, validateEvents, problems),
  ]);
  return { input: { openapi, asyncapi }, problems };
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@redocly/openapi-core';
import { fileHash } from '../cache/content-hash.js';
import { type LoadedEntry, loadCache, loadToolKey } from '../cache/load-cache.js';
import type { ResolvedGeneratorConfig } from '../config.js';
import type { ModelInput } from '../ir/build-model.js';
import type { JsonObject } from '../ir/json.js';
import type { Problem } from '../problems.js';
import type { AsyncApiProblem } from './lint-asyncapi.js';
import { walkExternalRefs } from './ref-origins.js';

interface LoadedDocument {
  file: string;
  document: JsonObject;
  origins: Map<string, string>;
}

export interface LoadOptions {
  /** Where lint and bundle results are kept between runs (keyed by content); null: always load afresh. */
  cacheDir?: string | null;
}

type Validate = (file: string) => Promise<Problem[]>;

function asProblem(problem: AsyncApiProblem, file: string, rootDir: string): Problem {
  return {
    severity: problem.severity === 'error' ? 'error' : 'warning',
    file: path.relative(rootDir, problem.source ?? file),
    pointer: problem.pointer.replace(/^#/, ''),
    message: problem.message,
    rule: `asyncapi/${problem.code}`,
  };
}

/**
 * Redocly and the AsyncAPI parser (with its Spectral rules) take seconds to load: they are imported on first use,
 * so a run whose documents are all cached never loads them.
 */
function lazyTools(lintConfigFile: string | null, rootDir: string) {
  let redoclyConfig: Promise<Config> | undefined;
  const config = () => {
    redoclyConfig ??= import('./redocly.js').then((redocly) => redocly.loadRedoclyConfig(lintConfigFile));
    return redoclyConfig;
  };
  const lintRest: Validate = async (file) => {
    const [{ lintOpenApi }, { problemFromRedocly }] = await Promise.all([
      import('./lint-openapi.js'),
      import('./redocly.js'),
    ]);
    return (await lintOpenApi(file, await config())).map((problem) => problemFromRedocly(problem, rootDir));
  };
  const validateEvents: Validate = async (file) => {
    const { isFailing, lintAsyncApi } = await import('./lint-asyncapi.js');
    return (await lintAsyncApi(file)).filter(isFailing).map((problem) => asProblem(problem, file, rootDir));
  };
  const bundle = async (file: string) => {
    const { bundleDocument } = await import('./redocly.js');
    return bundleDocument(file, await config(), rootDir);
  };
  return { lintRest, validateEvents, bundle };
}

/** Validates one document with `validate`, then bundles it; the bundle's own errors are added when new. */
async function freshLoad(
  file: string,
  validate: Validate,
  bundle: ReturnType<typeof lazyTools>['bundle'],
  origins: Map<string, string>,
): Promise<LoadedEntry> {
  const found = await validate(file);
  const bundled = await bundle(file);
  const isKnown = (problem: Problem) =>
    found.some(
      (known) =>
        known.file === problem.file && known.pointer === problem.pointer && known.message === problem.message,
    );
  return {
    problems: [...found, ...bundled.problems.filter((problem) => !isKnown(problem))],
    document: bundled.document,
    origins: [...origins],
  };
}

async function loadDocument(
  file: string,
  validate: Validate,
  tools: ReturnType<typeof lazyTools>,
  config: ResolvedGeneratorConfig,
  cache: { dir: string; toolKey: string } | null,
  problems: Problem[],
): Promise<LoadedDocument | null> {
  const { rootDir } = config;
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
  const slot = cache === null ? null : loadCache(cache.dir, rootDir, cache.toolKey, file);
  let entry = slot?.read() ?? null;
  if (entry === null) {
    // The files are hashed before they are read for the load, so an edit during the load can only cause a miss.
    const walked = walkExternalRefs(file, rootDir);
    const hashes = walked.files.map((walkedFile) => [walkedFile, fileHash(walkedFile)] as const);
    entry = await freshLoad(file, validate, tools.bundle, walked.origins);
    slot?.write(entry, hashes);
  }
  problems.push(...entry.problems);
  if (entry.document === null) return null;
  return { file: path.relative(rootDir, file), document: entry.document, origins: new Map(entry.origins) };
}

/**
 * The load stage: lint and bundle the OpenAPI document, validate and bundle the AsyncAPI document. Every problem of
 * both is collected; the caller stops before the IR when any of them is an error.
 */
export async function loadSpecs(
  config: ResolvedGeneratorConfig,
  options: LoadOptions = {},
): Promise<{ input: ModelInput; problems: Problem[] }> {
  const { rootDir } = config;
  const problems: Problem[] = [];
  const tools = lazyTools(config.lintConfigFile, rootDir);
  const cache =
    options.cacheDir === undefined || options.cacheDir === null
      ? null
      : { dir: options.cacheDir, toolKey: loadToolKey(rootDir, config.lintConfigFile) };
  const [openapi, asyncapi] = await Promise.all([
    config.openapi === null
      ? null
      : loadDocument(config.openapi, tools.lintRest, tools, config, cache, problems),
    config.asyncapi === null
      ? null
      : loadDocument(config.asyncapi, tools.validateEvents, tools, config, cache, problems),
  ]);
  return { input: { openapi, asyncapi }, problems };
}

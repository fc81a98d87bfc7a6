import path from 'node:path';
import { bundle, type Config, createConfig, loadConfig, type NormalizedProblem } from '@redocly/openapi-core';
import type { JsonObject } from '../ir/json.js';
import type { Problem } from '../problems.js';
import { assertFileExists } from './input-file.js';

// Redocly code started from here stays quiet and offline.
process.env.REDOCLY_TELEMETRY ??= 'off';
process.env.REDOCLY_SUPPRESS_UPDATE_NOTICE ??= 'true';

/** The Redocly config: the given file (our rules), or Redocly's `recommended` ruleset (never a file found by search). */
export async function loadRedoclyConfig(configFile: string | null): Promise<Config> {
  if (configFile !== null) assertFileExists(configFile, 'Redocly config');
  return configFile === null
    ? createConfig({ extends: ['recommended'] })
    : loadConfig({ configPath: configFile });
}

export function problemFromRedocly(problem: NormalizedProblem, rootDir: string): Problem {
  const location = problem.location[0];
  const source = location?.source.absoluteRef ?? '';
  return {
    severity: problem.severity === 'error' ? 'error' : 'warning',
    file: path.isAbsolute(source) ? path.relative(rootDir, source) : source,
    pointer: (location?.pointer ?? '#/').replace(/^#/, ''),
    message: problem.message,
    rule: problem.ruleId,
  };
}

/** Bundles a document (OpenAPI or AsyncAPI): external references hoisted into components, local ones kept. */
export async function bundleDocument(
  file: string,
  config: Config,
  rootDir: string,
): Promise<{ document: JsonObject | null; problems: Problem[] }> {
  const result = await bundle({ ref: file, config, dereference: false });
  const problems = result.problems
    .filter((problem) => !problem.ignored && problem.severity === 'error')
    .map((problem) => problemFromRedocly(problem, rootDir));
  const parsed: unknown = result.bundle.parsed;
  const document = parsed !== null && typeof parsed === 'object' ? (parsed as JsonObject) : null;
  return { document, problems };
}

// npm run lint:spec [-- --openapi <path>] [--asyncapi <path>] [--config <path>]
// Lints the OpenAPI document with Redocly (recommended + telemetry/* rules) and validates the AsyncAPI document
// with @asyncapi/parser; prints every problem with its location, then exits 1 on any error or warning.
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatProblems, getTotals, YamlParseError } from '@redocly/openapi-core';
import { assertFileExists, InputFileError } from '../generators/load/input-file.js';
import { type AsyncApiProblem, isFailing, lintAsyncApi } from '../generators/load/lint-asyncapi.js';
import { lintOpenApi } from '../generators/load/lint-openapi.js';
import { loadRedoclyConfig } from '../generators/load/redocly.js';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

function readArguments(): { openapiPath: string; asyncapiPath: string; configPath: string } {
  const { values } = parseArgs({
    options: {
      openapi: { type: 'string', default: resolve(repositoryRoot, 'spec/openapi.yaml') },
      asyncapi: { type: 'string', default: resolve(repositoryRoot, 'spec/asyncapi.yaml') },
      config: { type: 'string', default: resolve(repositoryRoot, 'redocly.yaml') },
    },
    strict: true,
  });
  return {
    openapiPath: resolve(values.openapi),
    asyncapiPath: resolve(values.asyncapi),
    configPath: resolve(values.config),
  };
}

function formatAsyncApiProblem(problem: AsyncApiProblem, documentPath: string): string {
  const file = relative(process.cwd(), problem.source ?? documentPath);
  return `${file}:${problem.line}:${problem.column} at ${problem.pointer}  ${problem.severity}  ${problem.code}  ${problem.message}`;
}

async function main(): Promise<number> {
  const { openapiPath, asyncapiPath, configPath } = readArguments();
  // Check every input before linting any, so a wrong path is the only line printed.
  assertFileExists(openapiPath, 'OpenAPI document');
  assertFileExists(asyncapiPath, 'AsyncAPI document');
  assertFileExists(configPath, 'Redocly config');

  const openapiProblems = await lintOpenApi(openapiPath, await loadRedoclyConfig(configPath));
  const openapiTotals = getTotals(openapiProblems);
  formatProblems(openapiProblems, {
    format: 'codeframe',
    totals: openapiTotals,
    maxProblems: Number.MAX_SAFE_INTEGER,
  });

  const asyncapiProblems = await lintAsyncApi(asyncapiPath);
  for (const problem of asyncapiProblems) console.log(formatAsyncApiProblem(problem, asyncapiPath));
  const asyncapiErrors = asyncapiProblems.filter((problem) => problem.severity === 'error').length;
  const asyncapiWarnings = asyncapiProblems.filter((problem) => problem.severity === 'warning').length;

  console.log(
    `lint:spec: ${relative(process.cwd(), openapiPath)}: ${openapiTotals.errors} errors, ${openapiTotals.warnings} warnings; ` +
      `${relative(process.cwd(), asyncapiPath)}: ${asyncapiErrors} errors, ${asyncapiWarnings} warnings`,
  );
  const failed = openapiTotals.errors + openapiTotals.warnings > 0 || asyncapiProblems.some(isFailing);
  return failed ? 1 : 0;
}

/** A bad path, flag or YAML file is the user's to fix: one line, no stack. Anything else is a bug and keeps its stack. */
function isUserError(error: unknown): error is Error {
  if (error instanceof InputFileError || error instanceof YamlParseError) return true;
  return error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!isUserError(error)) throw error;
  console.error(`lint:spec: ${error.message}`);
  process.exitCode = 1;
}

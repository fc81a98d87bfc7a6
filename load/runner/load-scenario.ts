import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import type { Scenario } from './scenario.js';

const loadDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const scenariosDirectory = path.join(loadDirectory, 'scenarios');
export const scenarioSchemaFile = path.join(loadDirectory, 'scenario.schema.json');

/** A scenario that cannot be read or breaks the schema: one line per problem, no stack. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

let compiled: ReturnType<Ajv2020['compile']> | null = null;

function validator() {
  if (compiled === null) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    compiled = ajv.compile(JSON.parse(readFileSync(scenarioSchemaFile, 'utf8')) as object);
  }
  return compiled;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(top level)' : error.instancePath;
  const detail =
    error.keyword === 'additionalProperties'
      ? ` "${(error.params as { additionalProperty: string }).additionalProperty}"`
      : error.keyword === 'enum'
        ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
        : '';
  return `${where} ${error.message ?? error.keyword}${detail}`;
}

/** Validates parsed scenario data; throws ScenarioError naming every problem with its JSON pointer. */
export function validateScenario(data: unknown, source: string): Scenario {
  const validate = validator();
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map(describe);
    throw new ScenarioError(`${source} is not a valid scenario:\n  ${problems.join('\n  ')}`);
  }
  return data as unknown as Scenario;
}

/** A scenario by name (a file of load/scenarios/) or by path to a .yaml/.json file. */
export function loadScenario(nameOrFile: string, cwd = process.cwd()): Scenario {
  const isFile = /\.(ya?ml|json)$/.test(nameOrFile);
  const file = isFile ? path.resolve(cwd, nameOrFile) : path.join(scenariosDirectory, `${nameOrFile}.yaml`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ScenarioError(`no scenario "${nameOrFile}" (${file}); known: ${listScenarios().join(', ')}`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    throw new ScenarioError(`${file} is not YAML: ${(error as Error).message}`);
  }
  return validateScenario(data, path.relative(cwd, file) || file);
}

export function listScenarios(): string[] {
  try {
    return readdirSync(scenariosDirectory)
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => name.replace(/\.yaml$/, ''))
      .sort();
  } catch {
    return [];
  }
}

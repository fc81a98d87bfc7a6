import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Names of the artifacts the registry knows; each is emitted into `<outDir>/<name>/`. */
export const artifactNames = [
  'types',
  'validators',
  'client',
  'server',
  'webhooks',
  'messages',
  'load',
] as const;
export type ArtifactName = (typeof artifactNames)[number];

/** Load scenarios (data files) from which the `load` artifact renders one k6 script each. */
export interface LoadScenarioOptions {
  /** A folder of `*.yaml` scenarios. */
  scenarios: string;
  /** The JSON Schema every scenario must meet. */
  schema: string;
}

export interface LintOptions {
  /** A Redocly config file; without it the `recommended` ruleset is used. */
  configFile?: string;
}

/** What a user writes in `toolkit.config.ts`: everything optional. */
export interface GeneratorConfig {
  openapi?: string | null;
  asyncapi?: string | null;
  outDir?: string;
  runtimeDir?: string;
  artifacts?: ArtifactName[];
  lint?: LintOptions;
  /** Without it the `load` artifact renders nothing. */
  load?: LoadScenarioOptions;
}

/** The config every stage reads: absolute paths, no defaults left to apply. */
export interface ResolvedGeneratorConfig {
  rootDir: string;
  openapi: string | null;
  asyncapi: string | null;
  outDir: string;
  runtimeDir: string;
  artifacts: ArtifactName[];
  lintConfigFile: string | null;
  /** Absolute paths, or null when no load scenarios are configured. */
  load: LoadScenarioOptions | null;
}

export function defineConfig(config: GeneratorConfig): GeneratorConfig {
  return config;
}

export function resolveConfig(config: GeneratorConfig, rootDir: string): ResolvedGeneratorConfig {
  const absolute = (file: string) => path.resolve(rootDir, file);
  const optional = (file: string | null | undefined, fallback: string | null) =>
    file === null ? null : absolute(file ?? fallback ?? '');
  const artifacts = config.artifacts ?? [...artifactNames];
  for (const name of artifacts) {
    if (!artifactNames.includes(name))
      throw new Error(`unknown artifact "${name}" (known: ${artifactNames.join(', ')})`);
  }
  return {
    rootDir,
    openapi: config.openapi === undefined ? absolute('spec/openapi.yaml') : optional(config.openapi, null),
    asyncapi:
      config.asyncapi === undefined ? absolute('spec/asyncapi.yaml') : optional(config.asyncapi, null),
    outDir: absolute(config.outDir ?? 'generated'),
    runtimeDir: absolute(config.runtimeDir ?? 'runtime'),
    artifacts: artifactNames.filter((name) => artifacts.includes(name)),
    lintConfigFile: config.lint?.configFile ? absolute(config.lint.configFile) : null,
    load:
      config.load === undefined
        ? null
        : { scenarios: absolute(config.load.scenarios), schema: absolute(config.load.schema) },
  };
}

/** Loads `toolkit.config.ts` (or the given file) once; a missing default file means all defaults. */
export async function loadConfigFile(configFile: string | null, rootDir: string): Promise<GeneratorConfig> {
  const file = path.resolve(rootDir, configFile ?? 'toolkit.config.ts');
  try {
    const module = (await import(pathToFileURL(file).href)) as { default?: GeneratorConfig };
    return module.default ?? {};
  } catch (error) {
    if (configFile === null && (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return {};
    throw error;
  }
}

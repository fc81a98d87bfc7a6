import path from 'node:path';
import type { ResolvedGeneratorConfig } from '../config.js';
import type { GeneratedFile } from '../emitters/generated-file.js';
import type { ApiModel } from '../ir/model.js';
import type { Problem } from '../problems.js';
import { cacheSlot } from './cache-file.js';
import { fileHash, filesUnder, hashParts, packageVersions, plainJson } from './content-hash.js';

/** Bump when the entry's shape or meaning changes. */
const formatVersion = 'emit-1';
const generatorsDir = path.resolve(import.meta.dirname, '..');
const runtimeDir = path.resolve(generatorsDir, '..', 'runtime');
/** Every library an emitter (or what it imports) runs. */
const emitterLibraries = [
  'ts-morph',
  '@ts-morph/common',
  'typescript',
  'openapi-typescript',
  'ajv',
  'ajv-formats',
  'handlebars',
  'yaml',
];

export interface EmittedEntry {
  files: GeneratedFile[];
  problems: Problem[];
}

/** Source an emitter may run: everything in generators/ and runtime/ but tests and golden cases. */
function isEmitterSource(relativePath: string): boolean {
  const name = path.basename(relativePath);
  return name !== 'golden' && !name.endsWith('.test.ts') && name !== 'README.md';
}

/**
 * Emitters are pure functions of the model and the config (ARCHITECTURE.md), so their output is keyed by the model,
 * the artifacts and folders, and every file of code that could run: generators/, runtime/, the libraries' versions
 * and Node's.
 */
export function emitCache(cacheDir: string, model: ApiModel, config: ResolvedGeneratorConfig) {
  const code = [...filesUnder(generatorsDir, isEmitterSource), ...filesUnder(runtimeDir, isEmitterSource)];
  const key = hashParts([
    formatVersion,
    process.version,
    ...packageVersions(config.rootDir, emitterLibraries),
    ...code.flatMap((file) => [path.relative(generatorsDir, file), fileHash(file)]),
    plainJson({
      artifacts: config.artifacts,
      outDir: path.relative(config.rootDir, config.outDir),
      runtimeDir: path.relative(config.rootDir, config.runtimeDir),
    }),
    plainJson(model),
  ]);
  const slot = cacheSlot<EmittedEntry>(cacheDir, 'emit');
  return {
    read: (): EmittedEntry | null => {
      const found = slot.read();
      return found !== null && found.key === key ? found.entry : null;
    },
    write: (entry: EmittedEntry): void => slot.write(key, entry),
  };
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { JsonObject } from '../ir/json.js';
import type { Problem } from '../problems.js';
import { cacheSlot } from './cache-file.js';
import { fileHash, filesUnder, hashParts, packageVersions } from './content-hash.js';

/** Bump when the entry's shape or meaning changes. */
const formatVersion = 'load-1';
const generatorsDir = path.resolve(import.meta.dirname, '..');

/** What the load stage made of one document: its problems, its bundle, and where hoisted components came from. */
export interface LoadedEntry {
  problems: Problem[];
  document: JsonObject | null;
  origins: [string, string][];
}

interface StoredEntry extends LoadedEntry {
  /** Every file the result was made from (relative to the root), with its content hash when it was made. */
  files: [string, string][];
}

/** The Redocly config and what it loads from disk: plugins and extended configs named by a relative path. */
function lintConfigParts(configFile: string | null): string[] {
  if (configFile === null) return ['no-config'];
  const parts = [configFile, fileHash(configFile)];
  let parsed: unknown;
  try {
    parsed = YAML.parse(readFileSync(configFile, 'utf8'));
  } catch {
    return parts;
  }
  const fields = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  const local = [fields.plugins, fields.extends]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .filter((entry): entry is string => typeof entry === 'string' && /^\.{0,2}\//.test(entry));
  for (const entry of local) {
    // A plugin imports its siblings, so its whole folder is part of the key.
    const directory = path.dirname(path.resolve(path.dirname(configFile), entry));
    for (const file of filesUnder(directory)) parts.push(file, fileHash(file));
  }
  return parts;
}

/** The part of the key that is not the document: the load stage's code, its libraries, Node, the lint config. */
export function loadToolKey(rootDir: string, lintConfigFile: string | null): string {
  const ownCode = [
    ...filesUnder(path.join(generatorsDir, 'load')),
    ...filesUnder(path.join(generatorsDir, 'cache')),
    path.join(generatorsDir, 'problems.ts'),
    path.join(generatorsDir, 'ir', 'json.ts'),
    path.resolve(generatorsDir, '..', 'runtime', 'json-pointer.ts'),
  ];
  return hashParts([
    formatVersion,
    process.version,
    ...packageVersions(rootDir, ['@redocly/openapi-core', '@asyncapi/parser', 'yaml']),
    ...ownCode.flatMap((file) => [path.relative(generatorsDir, file), fileHash(file)]),
    ...lintConfigParts(lintConfigFile).map((part) => path.relative(rootDir, part) || part),
  ]);
}

/**
 * The cached load of one document. An entry is used only when it was made with the same tools for the same document
 * path and every file it was made from still has the same content (a changed file that adds a reference is itself a
 * changed file, so the recorded set is always complete for the result it holds).
 */
export function loadCache(cacheDir: string, rootDir: string, toolKey: string, documentFile: string) {
  const relative = path.relative(rootDir, documentFile);
  const slot = cacheSlot<StoredEntry>(cacheDir, `load-${relative.replaceAll(/[^A-Za-z0-9._-]/g, '_')}`);
  const key = hashParts([toolKey, relative]);
  return {
    read(): LoadedEntry | null {
      const found = slot.read();
      if (found === null || found.key !== key) return null;
      const unchanged = found.entry.files.every(
        ([file, hash]) => fileHash(path.resolve(rootDir, file)) === hash,
      );
      return unchanged ? found.entry : null;
    },
    /** `files` are hashed before the load read them, so a file edited during the load makes the entry miss. */
    write(entry: LoadedEntry, files: readonly (readonly [string, string])[]): void {
      const relativeFiles = files.map(([file, hash]): [string, string] => [
        path.relative(rootDir, file),
        hash,
      ]);
      slot.write(key, { ...entry, files: relativeFiles });
    },
  };
}

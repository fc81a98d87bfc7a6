import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

/**
 * A YAML file read as data, through a cache of its JSON keyed by a hash of the text (issue 16). The spec's files are
 * parsed in nearly every process a run starts: the conformance CLI and each of its check workers, the reference's
 * tests, the load runner. `yaml` takes ~0.4–0.8 s of CPU for the spec's ~440 KB; `JSON.parse` of the same data a
 * small fraction of that. The cache lives in the nearest `node_modules/.cache/` above the file; where there is none,
 * or it cannot be written, the file is parsed as before.
 */
export function readYamlFile(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  const directory = cacheDirectoryFor(file);
  if (directory === null) return YAML.parse(text) as unknown;
  const cached = path.join(directory, `${createHash('sha256').update(text).digest('hex')}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as unknown;
  } catch {
    // Not cached yet (or a torn file from a crash): parse and write it below.
  }
  const document = YAML.parse(text) as unknown;
  if (isJsonData(document)) writeQuietly(directory, cached, JSON.stringify(document));
  return document;
}

const cacheDirectories = new Map<string, string | null>();

/** `node_modules/.cache/yaml-json` of the nearest folder above `file` that has a `node_modules`. */
function cacheDirectoryFor(file: string): string | null {
  const start = path.dirname(path.resolve(file));
  let found = cacheDirectories.get(start);
  if (found !== undefined) return found;
  found = null;
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'node_modules'))) {
      found = path.join(folder, 'node_modules', '.cache', 'yaml-json');
      break;
    }
    if (path.dirname(folder) === folder) break;
  }
  cacheDirectories.set(start, found);
  return found;
}

/** True when JSON gives the value back as it is: plain objects, arrays, strings, finite numbers, booleans, null. */
function isJsonData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonData);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.entries(value).every(([key, item]) => key !== '__proto__' && isJsonData(item));
}

/** Writes whole or not at all (a rename), so a concurrent reader never sees half a file; a failure only costs speed. */
function writeQuietly(directory: string, file: string, text: string): void {
  try {
    mkdirSync(directory, { recursive: true });
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  } catch {
    // A read-only installation: the next process parses the YAML again.
  }
}

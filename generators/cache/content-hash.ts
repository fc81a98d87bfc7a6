import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** SHA-256 in hex of the parts in order, each length-prefixed so that no two different lists hash alike. */
export function hashParts(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest('hex');
}

/** The content hash of a file, or a marker for a file that cannot be read (so its later appearance changes the key). */
export function fileHash(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return 'unreadable';
  }
}

/** Every file under a directory (recursively, sorted), skipping node_modules and folders the filter refuses. */
export function filesUnder(
  directory: string,
  keep: (relativePath: string) => boolean = () => true,
): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (!keep(path.relative(directory, full))) continue;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else {
        found.push(full);
      }
    }
  };
  walk(directory);
  return found.sort();
}

/** `name@version` of each installed package as resolved from `fromDirectory` (nested copies included by path). */
export function packageVersions(fromDirectory: string, names: readonly string[]): string[] {
  const require = createRequire(path.join(fromDirectory, 'noop.js'));
  return names.map((name) => {
    try {
      const manifest = require.resolve(`${name}/package.json`);
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string };
      return `${name}@${version ?? '?'}`;
    } catch {
      return `${name}@missing`;
    }
  });
}

/**
 * JSON of plain data for a cache key. Throws on a Map, Set, function or class instance: JSON.stringify would drop
 * or flatten them, and a key that misses part of its input could return a stale result.
 */
export function plainJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member === 'function' || typeof member === 'symbol' || typeof member === 'bigint')
      throw new TypeError(`a cache key cannot hold a ${typeof member}`);
    if (member !== null && typeof member === 'object' && !Array.isArray(member)) {
      const prototype = Object.getPrototypeOf(member);
      if (prototype !== Object.prototype && prototype !== null)
        throw new TypeError(
          `a cache key cannot hold a ${prototype?.constructor?.name ?? 'non-plain'} object`,
        );
    }
    return member;
  });
}

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One slot of the cache: a JSON file holding the latest entry and the key it was made for. */
export interface CacheSlot<Entry> {
  read(): { key: string; entry: Entry } | null;
  write(key: string, entry: Entry): void;
}

/**
 * A slot under `directory`. Reads treat a missing or unreadable file as a miss; writes go to a temporary file renamed
 * into place, so a concurrent run reads the old entry or the new one, never half of one.
 */
export function cacheSlot<Entry>(directory: string, name: string): CacheSlot<Entry> {
  const file = path.join(directory, `${name}.json`);
  return {
    read() {
      try {
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown; entry?: Entry };
        return typeof parsed.key === 'string' && parsed.entry !== undefined
          ? { key: parsed.key, entry: parsed.entry }
          : null;
      } catch {
        return null;
      }
    },
    write(key, entry) {
      try {
        mkdirSync(directory, { recursive: true });
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, JSON.stringify({ key, entry }));
        renameSync(temporary, file);
      } catch {
        // A cache that cannot be written (read-only checkout) only costs the next run its speed.
      }
    },
  };
}

import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GeneratedFile } from './emitters/generated-file.js';

export interface Drift {
  changed: string[];
  missing: string[];
  extra: string[];
}

async function listFiles(directory: string, prefix = ''): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? listFiles(path.join(directory, entry.name), `${prefix}${entry.name}/`)
        : Promise.resolve([`${prefix}${entry.name}`]),
    ),
  );
  return nested.flat().sort();
}

/** Compares what the spec gives with what is on disk, file by file. */
export async function findDrift(files: readonly GeneratedFile[], outDir: string): Promise<Drift> {
  const onDisk = new Set(await listFiles(outDir));
  const drift: Drift = { changed: [], missing: [], extra: [] };
  for (const file of files) {
    if (!onDisk.has(file.path)) drift.missing.push(file.path);
    else if ((await readFile(path.join(outDir, file.path), 'utf8')) !== file.content)
      drift.changed.push(file.path);
    onDisk.delete(file.path);
  }
  drift.extra = [...onDisk];
  return drift;
}

export function hasDrift(drift: Drift): boolean {
  return drift.changed.length + drift.missing.length + drift.extra.length > 0;
}

/**
 * The only file writer. It runs after every file was rendered, so a failed generation never touches the folder;
 * it writes only what changed and removes files the spec no longer gives.
 */
export async function writeGenerated(files: readonly GeneratedFile[], outDir: string): Promise<Drift> {
  const paths = new Set<string>();
  for (const file of files) {
    if (paths.has(file.path)) throw new Error(`two files would be written to ${file.path}`);
    paths.add(file.path);
  }
  const drift = await findDrift(files, outDir);
  const toWrite = new Set([...drift.changed, ...drift.missing]);
  for (const file of files) {
    if (!toWrite.has(file.path)) continue;
    const target = path.join(outDir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
  for (const extra of drift.extra) await rm(path.join(outDir, extra));
  return drift;
}

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readYamlFile } from './yaml-file.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A project folder with a node_modules (where the cache goes) and a YAML file under spec/. */
function project(yaml: string): { file: string; cache: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'yaml-file-'));
  folders.push(root);
  mkdirSync(path.join(root, 'node_modules'));
  mkdirSync(path.join(root, 'spec'));
  const file = path.join(root, 'spec', 'document.yaml');
  writeFileSync(file, yaml);
  return { file, cache: path.join(root, 'node_modules', '.cache', 'yaml-json') };
}

const cachedFiles = (cache: string) => {
  try {
    return readdirSync(cache);
  } catch {
    return [];
  }
};

describe('readYamlFile', () => {
  it('parses the YAML, then answers from the JSON it kept for that text', () => {
    const { file, cache } = project('title: Pump\nlimits: { max: 100 }\nlist: [1, two, null, true]\n');
    const expected = { title: 'Pump', limits: { max: 100 }, list: [1, 'two', null, true] };
    expect(readYamlFile(file)).toEqual(expected);
    const [kept] = cachedFiles(cache);
    expect(kept).toMatch(/^[0-9a-f]{64}\.json$/);
    // The second read comes from the kept JSON: changed by hand, it is what comes back.
    writeFileSync(path.join(cache, String(kept)), JSON.stringify({ title: 'from the cache' }));
    expect(readYamlFile(file)).toEqual({ title: 'from the cache' });
  });

  it('parses again when the text changes', () => {
    const { file, cache } = project('title: Pump\n');
    expect(readYamlFile(file)).toEqual({ title: 'Pump' });
    writeFileSync(file, 'title: Valve\n');
    expect(readYamlFile(file)).toEqual({ title: 'Valve' });
    expect(cachedFiles(cache)).toHaveLength(2);
  });

  it('keeps nothing that JSON would change (an infinite number), and still returns it', () => {
    const { file, cache } = project('maximum: .inf\n');
    expect(readYamlFile(file)).toEqual({ maximum: Number.POSITIVE_INFINITY });
    expect(readYamlFile(file)).toEqual({ maximum: Number.POSITIVE_INFINITY });
    expect(cachedFiles(cache)).toEqual([]);
  });

  it('parses a truncated cache file away rather than failing', () => {
    const { file, cache } = project('title: Pump\n');
    readYamlFile(file);
    const [kept] = cachedFiles(cache);
    writeFileSync(path.join(cache, String(kept)), '{"title": "Pu');
    expect(readYamlFile(file)).toEqual({ title: 'Pump' });
    expect(JSON.parse(readFileSync(path.join(cache, String(kept)), 'utf8'))).toEqual({ title: 'Pump' });
  });

  it('reports YAML errors as the parser does', () => {
    const { file } = project('title: [unclosed\n');
    expect(() => readYamlFile(file)).toThrow(/flow sequence|Missing|unclosed|Unexpected/i);
  });
});

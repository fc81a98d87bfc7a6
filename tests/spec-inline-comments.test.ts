// A ` #` inside a plain YAML scalar starts a comment: `rule: a wildcard (+ or #), …` is the rule "a wildcard (+ or",
// and the rest of the sentence silently leaves the spec (wave 24 did this once). The spec's files keep comments on
// lines of their own, so any comment trailing a value is such a cut.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument, visit } from 'yaml';

const specDirectory = path.resolve(import.meta.dirname, '..', 'spec');

function yamlFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const file = path.join(directory, name);
    if (statSync(file).isDirectory()) return yamlFiles(file);
    return file.endsWith('.yaml') ? [file] : [];
  });
}

/** `line: comment` for every comment that trails a value on its line. */
function trailingComments(text: string): string[] {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines });
  const found: string[] = [];
  visit(document, {
    Scalar(_key, node) {
      if (node.comment !== undefined && node.comment !== null)
        found.push(`${lines.linePos(node.range?.[0] ?? 0).line}: #${node.comment}`);
    },
  });
  return found;
}

describe('comments in the spec', () => {
  it('finds a value cut short by " #"', () => {
    expect(
      trailingComments('rules:\n  rule: a wildcard (+ or #), then more\n  # a comment of its own\n'),
    ).toEqual(['2: #), then more']);
  });

  it.each(yamlFiles(specDirectory).map((file) => path.relative(specDirectory, file)))(
    '%s has no comment after a value',
    (file) => {
      expect(trailingComments(readFileSync(path.join(specDirectory, file), 'utf8'))).toEqual([]);
    },
  );
});

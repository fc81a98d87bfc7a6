/**
 * Checks a JSON text's structure before it is parsed: nesting deeper than `maxDepth` (a validator or a walker
 * recursing over it would overflow the stack) and a key repeated within one object (JSON.parse keeps the last,
 * another parser the first). Returns what is wrong, or null; malformed JSON is left to the parser to report.
 */
export function jsonStructureProblem(text: string, maxDepth: number): string | null {
  /** One entry per open container: the keys of an object, or null for an array. */
  const open: Array<Set<string> | null> = [];
  let expectingKey = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') {
      const end = stringEnd(text, index);
      if (end === -1) return null;
      const keys = open.at(-1);
      if (expectingKey && keys) {
        const key = decodedString(text.slice(index, end + 1));
        if (key === null) return null;
        if (keys.has(key)) return `The key "${key}" appears twice in one object.`;
        keys.add(key);
        expectingKey = false;
      }
      index = end;
    } else if (character === '{' || character === '[') {
      open.push(character === '{' ? new Set() : null);
      if (open.length > maxDepth) return `The request body nests deeper than ${maxDepth} levels.`;
      expectingKey = character === '{';
    } else if (character === '}' || character === ']') {
      open.pop();
    } else if (character === ',') {
      expectingKey = Boolean(open.at(-1));
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\') index += 1;
    else if (character === '"') return index;
  }
  return -1;
}

function decodedString(literal: string): string | null {
  // Most keys are plain text: without escapes or control characters the literal's inside is the key itself.
  if (plainLiteral(literal)) return literal.slice(1, -1);
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null;
  }
}

const backslash = 0x5c;
const firstPrintable = 0x20;

/** No escape and no control character between the quotes (what JSON.parse would refuse or decode). */
function plainLiteral(literal: string): boolean {
  for (let index = 1; index < literal.length - 1; index += 1) {
    const code = literal.charCodeAt(index);
    if (code === backslash || code < firstPrintable) return false;
  }
  return true;
}

/**
 * Checks a JSON text's structure before it is parsed: nesting deeper than `maxDepth` (a validator or a walker
 * recursing over it would overflow the stack) and a key repeated within one object (JSON.parse keeps the last,
 * another parser the first). Returns what is wrong, or null; malformed JSON is left to the parser to report.
 *
 * Every request body passes here (issue 16): the text is read by character code (no one-character strings), and an
 * object's keys are kept in an array searched from the end until it has `keysBeforeSet` of them, so the small bodies
 * of this API cost no Set and no hashing of their keys.
 */
export function jsonStructureProblem(text: string, maxDepth: number): string | null {
  /** One entry per open container: the keys of an object, or null for an array. */
  const open: Array<ObjectKeys | null> = [];
  let expectingKey = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === quote) {
      const end = stringEnd(text, index);
      if (end === -1) return null;
      const keys = open[open.length - 1];
      if (expectingKey && keys) {
        const key = decodedString(text, index, end);
        if (key === null) return null;
        if (!keys.add(key)) return `The key "${key}" appears twice in one object.`;
        expectingKey = false;
      }
      index = end;
    } else if (code === openBrace || code === openBracket) {
      open.push(code === openBrace ? new ObjectKeys() : null);
      if (open.length > maxDepth) return `The request body nests deeper than ${maxDepth} levels.`;
      expectingKey = code === openBrace;
    } else if (code === closeBrace || code === closeBracket) {
      open.pop();
    } else if (code === comma) {
      expectingKey = Boolean(open[open.length - 1]);
    }
  }
  return null;
}

const quote = 0x22;
const backslash = 0x5c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const comma = 0x2c;
const firstPrintable = 0x20;
/** Past this many keys in one object a Set is cheaper than searching the array. */
const keysBeforeSet = 16;

/** The keys seen in one object: an array while it is small, a Set once it is not. */
class ObjectKeys {
  private list: string[] = [];
  private set: Set<string> | null = null;

  /** Adds `key`; false when the object already had it. */
  add(key: string): boolean {
    if (this.set !== null) {
      if (this.set.has(key)) return false;
      this.set.add(key);
      return true;
    }
    for (let index = this.list.length - 1; index >= 0; index -= 1) if (this.list[index] === key) return false;
    this.list.push(key);
    if (this.list.length > keysBeforeSet) this.set = new Set(this.list);
    return true;
  }
}

/** The index of the quote that closes the string opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === backslash) index += 1;
    else if (code === quote) return index;
  }
  return -1;
}

/** The string whose literal runs from the quote at `start` to the quote at `end`, or null when it is not valid. */
function decodedString(text: string, start: number, end: number): string | null {
  // Most keys are plain text: without escapes or control characters the literal's inside is the key itself.
  if (plainLiteral(text, start, end)) return text.slice(start + 1, end);
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return null;
  }
}

/** No escape and no control character between the quotes (what JSON.parse would refuse or decode). */
function plainLiteral(text: string, start: number, end: number): boolean {
  for (let index = start + 1; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === backslash || code < firstPrintable) return false;
  }
  return true;
}

/**
 * Spec strings become identifiers and comments here, once, when the IR is built: emitters can print them as they are.
 */

const reservedWords = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private protected public static yield any boolean number string symbol type object unknown never await'.split(
    ' ',
  ),
);

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0);
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

function guardStart(identifier: string, fallback: string): string {
  if (identifier.length === 0) return fallback;
  return /^[0-9]/.test(identifier) ? `_${identifier}` : identifier;
}

export function pascalCase(text: string): string {
  return guardStart(words(text).map(capitalise).join(''), 'Unnamed');
}

export function camelCase(text: string): string {
  const pascal = pascalCase(text);
  const camel = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  return reservedWords.has(camel) ? `${camel}_` : camel;
}

/** Keeps an identifier the document already spelt validly (operationIds), otherwise camel-cases it. */
export function identifier(text: string): string {
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(text) && !reservedWords.has(text)) return text;
  return camelCase(text);
}

/** Text safe inside a JSDoc block: no comment terminator, no trailing blanks. */
export function commentText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const cleaned = text
    .replaceAll('*/', '*\\/')
    .replace(/[ \t]+$/gm, '')
    .trim();
  return cleaned.length > 0 ? cleaned : null;
}

/** A property key as TypeScript needs it: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : stringLiteral(name);
}

/** A single-quoted TypeScript string literal, the quote style of every generated file. */
export function stringLiteral(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
}

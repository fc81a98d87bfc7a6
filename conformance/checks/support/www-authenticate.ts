// WWW-Authenticate read as RFC 9110 section 11.6.1 defines it (a list of challenges, each a scheme and auth-params
// or a token68), so checks judge the parameters RFC 6750 section 3 gives a Bearer challenge (`error`, `scope`) instead
// of searching the header's text: a parameter glued to another, or text that is no parameter, is a malformed header.

export interface Challenge {
  /** The auth-scheme as sent (compare case-insensitively). */
  scheme: string;
  /** Auth-params by name in lower case, quoted-strings unquoted; empty for a bare scheme or a token68. */
  parameters: ReadonlyMap<string, string>;
}

const token = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
const quotedString = /"((?:[^"\\]|\\[\s\S])*)"/y;
const token68 = /[A-Za-z0-9._~+/-]+=*/y;
const whitespace = /[ \t]*/y;
/** `name = value`, the start of an auth-param (BWS around `=`), as opposed to the scheme of the next challenge. */
const parameterStart = /[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]*=[ \t]*(?:"|[!#$%&'*+.^_`|~0-9A-Za-z-])/y;

class Cursor {
  position = 0;
  constructor(readonly text: string) {}

  /** The text `pattern` matches here (advancing past it), or null. */
  take(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.position;
    const match = pattern.exec(this.text);
    if (match !== null) this.position = pattern.lastIndex;
    return match;
  }

  sees(pattern: RegExp): boolean {
    pattern.lastIndex = this.position;
    return pattern.test(this.text);
  }

  get done(): boolean {
    return this.position >= this.text.length;
  }

  get next(): string | undefined {
    return this.text[this.position];
  }

  /** Whitespace, then commas with whitespace: empty list elements are allowed (RFC 9110 section 5.6.1). */
  skipSeparators(): boolean {
    this.take(whitespace);
    let sawComma = false;
    while (this.next === ',') {
      sawComma = true;
      this.position += 1;
      this.take(whitespace);
    }
    return sawComma;
  }
}

/** One auth-param: adds it, or returns false when the text here is none or its name was already given. */
function readParameter(cursor: Cursor, parameters: Map<string, string>): boolean {
  const name = cursor.take(token)?.[0].toLowerCase();
  cursor.take(whitespace);
  if (name === undefined || cursor.next !== '=') return false;
  cursor.position += 1;
  cursor.take(whitespace);
  const quoted = cursor.take(quotedString);
  const value = quoted === null ? cursor.take(token)?.[0] : quoted[1]?.replace(/\\([\s\S])/g, '$1');
  // RFC 9110 section 11.2: each parameter name only once per challenge.
  if (value === undefined || parameters.has(name)) return false;
  parameters.set(name, value);
  return true;
}

/** The challenges of a WWW-Authenticate value, or null when it is not a well-formed list of them. */
export function parseChallenges(value: string): Challenge[] | null {
  const cursor = new Cursor(value);
  const challenges: Challenge[] = [];
  cursor.skipSeparators();
  while (!cursor.done) {
    const scheme = cursor.take(token)?.[0];
    if (scheme === undefined) return null;
    const parameters = new Map<string, string>();
    challenges.push({ scheme, parameters });
    const spaces = cursor.take(whitespace)?.[0] ?? '';
    if (cursor.done) break;
    if (cursor.next === ',') {
      cursor.skipSeparators();
      continue;
    }
    if (!spaces.includes(' ')) return null;
    if (!cursor.sees(parameterStart)) {
      if (cursor.take(token68) === null) return null;
      cursor.take(whitespace);
      if (!cursor.done && !cursor.skipSeparators()) return null;
      continue;
    }
    for (;;) {
      if (!readParameter(cursor, parameters)) return null;
      const sawComma = cursor.skipSeparators();
      if (cursor.done) break;
      if (!sawComma) return null;
      if (!cursor.sees(parameterStart)) break;
    }
  }
  return challenges.length === 0 ? null : challenges;
}

/** The parameters of the header's one Bearer challenge, or null when it is malformed or has none or several. */
export function bearerChallenge(value: string | undefined): ReadonlyMap<string, string> | null {
  const bearer = parseChallenges(value ?? '')?.filter(
    (challenge) => challenge.scheme.toLowerCase() === 'bearer',
  );
  return bearer?.length === 1 ? (bearer[0]?.parameters ?? null) : null;
}

/**
 * Whether an Authorization value is of the Bearer scheme, with a token or without (`Bearer`, `Bearer a b`): RFC 6750
 * section 3.1 gives a challenge `error` only then, and none to a request of another scheme.
 */
export function isBearerScheme(authorization: string | undefined): boolean {
  return /^bearer(\s|$)/i.test(authorization ?? '');
}

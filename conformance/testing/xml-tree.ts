/** An element of a parsed XML document: enough to assert the structure of the JUnit report. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text with entities decoded (text of children not included). */
  text: string;
}

const nameStart = /[A-Za-z_:]/;
const nameCharacter = /[A-Za-z0-9_:.-]/;

function decodeEntities(raw: string, where: number): string {
  let out = '';
  for (let index = 0; index < raw.length; index++) {
    const character = raw[index] as string;
    if (character === '<') throw new Error(`raw "<" in text or attribute near offset ${where + index}`);
    if (character !== '&') {
      out += character;
      continue;
    }
    const end = raw.indexOf(';', index);
    if (end === -1) throw new Error(`unterminated entity near offset ${where + index}`);
    const entity = raw.slice(index + 1, end);
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (entity in named) out += named[entity];
    else if (/^#[0-9]+$/.test(entity)) out += String.fromCodePoint(Number(entity.slice(1)));
    else if (/^#x[0-9A-Fa-f]+$/.test(entity))
      out += String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    else throw new Error(`unknown entity &${entity}; near offset ${where + index}`);
    index = end;
  }
  return out;
}

/**
 * Parses a small XML document strictly (one root, balanced tags, quoted unique attributes, known entities) and
 * throws on anything that is not well-formed. No DTDs, CDATA or namespaces: the reports use none.
 */
export function parseXml(source: string): XmlElement {
  let position = 0;
  const fail = (message: string): never => {
    throw new Error(`${message} at offset ${position}`);
  };
  const skipSpace = () => {
    while (position < source.length && /\s/.test(source[position] as string)) position++;
  };
  const readName = (): string => {
    const start = position;
    if (!nameStart.test(source[position] ?? '')) fail('expected a name');
    while (nameCharacter.test(source[position] ?? '')) position++;
    return source.slice(start, position);
  };

  if (source.startsWith('<?xml')) {
    const end = source.indexOf('?>');
    if (end === -1) fail('unterminated XML declaration');
    position = end + 2;
  }
  skipSpace();
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  while (position < source.length) {
    if (source[position] !== '<') {
      const end = source.indexOf('<', position);
      const raw = source.slice(position, end === -1 ? source.length : end);
      const parent = stack.at(-1);
      if (parent === undefined) {
        if (raw.trim() !== '') fail('text outside the root element');
      } else parent.text += decodeEntities(raw, position);
      position = end === -1 ? source.length : end;
      continue;
    }
    if (source.startsWith('</', position)) {
      position += 2;
      const name = readName();
      skipSpace();
      if (source[position] !== '>') fail(`expected ">" closing </${name}`);
      position++;
      const open = stack.pop();
      if (open?.name !== name) fail(`</${name}> closes <${open?.name ?? '(nothing)'}>`);
      continue;
    }
    if (source.startsWith('<!--', position)) {
      const end = source.indexOf('-->', position);
      if (end === -1) fail('unterminated comment');
      position = end + 3;
      continue;
    }
    position++;
    const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' };
    for (;;) {
      const before = position;
      skipSpace();
      if (source.startsWith('/>', position) || source[position] === '>') break;
      if (position === before) fail(`expected space before an attribute of <${element.name}>`);
      const attribute = readName();
      if (source[position] !== '=') fail(`expected "=" after ${attribute}`);
      position++;
      const quote = source[position];
      if (quote !== '"' && quote !== "'") fail(`attribute ${attribute} is not quoted`);
      const end = source.indexOf(quote as string, position + 1);
      if (end === -1) fail(`unterminated attribute ${attribute}`);
      if (attribute in element.attributes) fail(`attribute ${attribute} given twice`);
      element.attributes[attribute] = decodeEntities(source.slice(position + 1, end), position + 1);
      position = end + 1;
    }
    const parent = stack.at(-1);
    if (parent === undefined) {
      if (root !== null) fail('a second root element');
      root = element;
    } else parent.children.push(element);
    if (source.startsWith('/>', position)) position += 2;
    else {
      position++;
      stack.push(element);
    }
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.map((element) => element.name).join('>, <')}>`);
  if (root === null) throw new Error('no root element');
  return root;
}

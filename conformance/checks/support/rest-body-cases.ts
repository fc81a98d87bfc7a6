// Negative request bodies derived from the JSON Schemas: each breaks exactly one constraint (or drops one required
// field) of an otherwise valid body, and names the error the spec's error roles promise for it.
import { apiPolicies } from '../../../generated/types/facts.js';
import { isObject, type JsonObject, locationText, type ResolvedSchema } from './rest-spec.js';

/** Which error role answers a case: `missingParameter`, `unknownParameter` or `invalidParameter` (errorRoles). */
export type CaseRole = 'missingParameter' | 'unknownParameter' | 'invalidParameter';

export interface BodyCase {
  title: string;
  body: unknown;
  role: CaseRole;
  /** The `param` the envelope must carry (a dot path), or null when no single parameter is at fault. */
  param: string | null;
  /** The use sites of the schemas on the way down (`schemas/create-stream-request.yaml#/properties/title`). */
  trail: string[];
  /** Where the broken keyword (or the `required` list) is written. */
  keywordAt: string;
}

/** Valid values by top-level field name, for fields whose valid value the spec's example cannot give (a real URL). */
export type ValidOverrides = Readonly<Record<string, unknown>>;

/** The unknown field every closed object is tried with; no schema of the spec defines it. */
const unknownField = 'conformanceUnknownField';
const notAMember = 'conformance-not-a-member';
const wrongTypeCandidates: readonly unknown[] = [
  12345,
  'conformance',
  true,
  ['conformance'],
  { conformance: 1 },
];

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeAllows(types: readonly string[], value: unknown): boolean {
  const type = jsonTypeOf(value);
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

function matches(pattern: string, text: string): boolean {
  return new RegExp(pattern, 'u').test(text);
}

function lengthFits(schema: ResolvedSchema, text: string): boolean {
  const length = [...text].length;
  return (
    length >= (schema.number('minLength') ?? 0) &&
    length <= (schema.number('maxLength') ?? Number.POSITIVE_INFINITY)
  );
}

/** A string that passes a string schema's length and pattern, when one of the candidates does. */
function fittingString(schema: ResolvedSchema, candidates: readonly string[]): string | undefined {
  const pattern = schema.value('pattern');
  return candidates.find(
    (candidate) =>
      lengthFits(schema, candidate) && (typeof pattern !== 'string' || matches(pattern, candidate)),
  );
}

/** Keys `k0`, `k1`... that pass the object's propertyNames schema. */
function validKeys(schema: ResolvedSchema, count: number): string[] {
  const names = schema.child('propertyNames');
  const keys: string[] = [];
  for (let index = 0; keys.length < count && index < count * 4; index += 1) {
    const key = `k${index}`;
    if (names === undefined || fittingString(names, [key]) !== undefined) keys.push(key);
  }
  if (keys.length < count) throw new Error(`cannot name ${count} valid keys at ${schema.site.file}`);
  return keys;
}

/**
 * A value the schema accepts: its first example where it has one (the spec's own valid instance), else the smallest
 * value its keywords allow. Throws where neither exists, so a missing example is seen, not guessed around.
 */
export function validValue(schema: ResolvedSchema): unknown {
  const examples = schema.value('examples');
  if (Array.isArray(examples) && examples.length > 0) return examples[0];
  const members = schema.members;
  if (members !== undefined && members.length > 0) return members[0];
  const type = schema.types.find((candidate) => candidate !== 'null');
  switch (type) {
    case 'string': {
      const minimum = schema.number('minLength') ?? 1;
      const text = fittingString(schema, ['x'.repeat(Math.max(minimum, 1))]);
      if (text === undefined && schema.types.includes('null')) return null;
      if (text === undefined) throw new Error(`no valid string for ${schema.sites.join(' → ')}`);
      return text;
    }
    case 'integer':
    case 'number':
      return schema.number('minimum') ?? 0;
    case 'boolean':
      return true;
    case 'array': {
      const items = schema.child('items');
      const count = schema.number('minItems') ?? 0;
      return items === undefined ? [] : Array.from({ length: count }, () => validValue(items));
    }
    case 'object': {
      const value: JsonObject = {};
      for (const name of schema.required) {
        const property = schema.child('properties', name);
        if (property === undefined) throw new Error(`required ${name} has no schema`);
        value[name] = validValue(property);
      }
      const missing = (schema.number('minProperties') ?? 0) - Object.keys(value).length;
      const extra = schema.child('additionalProperties');
      if (missing > 0 && extra !== undefined)
        for (const key of validKeys(schema, missing)) value[key] = validValue(extra);
      return value;
    }
    default:
      throw new Error(`no valid value for ${schema.sites.join(' → ')}`);
  }
}

/** Where a bad value goes: a function from the bad value to the whole request body. */
type Placement = (value: unknown) => unknown;

interface Walk {
  schema: ResolvedSchema;
  /** The dot path of the value (`samples.0.ts`). */
  path: readonly string[];
  /** A valid value at this place, which the cases below it start from. */
  valid: unknown;
  place: Placement;
  /** The use sites of the schemas on the way down, for the requirements a case exercises. */
  trail: readonly string[];
}

function paramOf(path: readonly string[]): string | null {
  return path.length === 0 ? null : path.join('.');
}

function describe(path: readonly string[]): string {
  return path.length === 0 ? 'the body' : path.join('.');
}

function tooLong(schema: ResolvedSchema, valid: unknown, length: number): string {
  const base = typeof valid === 'string' ? valid : 'x';
  const padding = 'a'.repeat(Math.max(length - [...base].length, 0));
  const candidates = [`${base}${padding}`, `${padding}${base}`, 'a'.repeat(length)];
  // Prefer a value that breaks only the length, so the case isolates maxLength.
  const pattern = schema.value('pattern');
  return (
    candidates.find(
      (candidate) =>
        [...candidate].length === length && (typeof pattern !== 'string' || matches(pattern, candidate)),
    ) ?? 'a'.repeat(length)
  );
}

function stringCases(walk: Walk, out: BodyCase[]): void {
  const { schema, path } = walk;
  const add = (title: string, value: unknown, keywordAt: string) =>
    out.push({
      title: `${describe(path)} ${title}`,
      body: walk.place(value),
      role: 'invalidParameter',
      param: paramOf(path),
      trail: [...walk.trail],
      keywordAt,
    });
  const minLength = schema.keyword('minLength');
  if (typeof minLength?.value === 'number' && minLength.value > 0)
    add(`shorter than minLength ${minLength.value}`, 'a'.repeat(minLength.value - 1), minLength.at);
  const maxLength = schema.keyword('maxLength');
  if (typeof maxLength?.value === 'number')
    add(
      `longer than maxLength ${maxLength.value}`,
      tooLong(schema, walk.valid, maxLength.value + 1),
      maxLength.at,
    );
  const pattern = schema.keyword('pattern');
  if (typeof pattern?.value === 'string') {
    const regex = pattern.value;
    const candidates = ['not matching', 'Conformance!', '1-conformance', '!'];
    // Prefer a value within the length bounds, so the case isolates the pattern.
    const breaking =
      candidates.find((candidate) => !matches(regex, candidate) && lengthFits(schema, candidate)) ??
      candidates.find((candidate) => !matches(regex, candidate));
    if (breaking !== undefined)
      add(`not matching its pattern (${JSON.stringify(breaking)})`, breaking, pattern.at);
  }
}

function numberCases(walk: Walk, out: BodyCase[]): void {
  const { schema, path } = walk;
  for (const [name, delta] of [
    ['minimum', -1],
    ['maximum', 1],
  ] as const) {
    const bound = schema.keyword(name);
    if (typeof bound?.value !== 'number') continue;
    out.push({
      title: `${describe(path)} ${delta < 0 ? 'below' : 'above'} its ${name} ${bound.value}`,
      body: walk.place(bound.value + delta),
      role: 'invalidParameter',
      param: paramOf(path),
      trail: [...walk.trail],
      keywordAt: bound.at,
    });
  }
}

function arrayCases(walk: Walk, out: BodyCase[]): void {
  const { schema, path } = walk;
  const items = schema.child('items');
  if (items === undefined) return;
  const validItem = Array.isArray(walk.valid) && walk.valid.length > 0 ? walk.valid[0] : validValue(items);
  const minItems = schema.number('minItems') ?? 0;
  const add = (title: string, value: unknown, keywordAt: string) =>
    out.push({
      title: `${describe(path)} ${title}`,
      body: walk.place(value),
      role: 'invalidParameter',
      param: paramOf(path),
      trail: [...walk.trail],
      keywordAt,
    });
  const minimum = schema.keyword('minItems');
  if (typeof minimum?.value === 'number' && minimum.value > 0)
    add(
      `with fewer than minItems ${minimum.value}`,
      Array.from({ length: minimum.value - 1 }, () => validItem),
      minimum.at,
    );
  const maximum = schema.keyword('maxItems');
  if (typeof maximum?.value === 'number') {
    const value = Array.from({ length: maximum.value + 1 }, () => validItem);
    // A body over the size limit would be refused for its size, not for maxItems: such a case cannot be sent.
    if (JSON.stringify(walk.place(value)).length < apiPolicies.limits.maxRequestBodyBytes)
      add(`with more than maxItems ${maximum.value}`, value, maximum.at);
  }
  const unique = schema.keyword('uniqueItems');
  if (unique?.value === true) add('with a repeated item (uniqueItems)', [validItem, validItem], unique.at);
  // The first item broken, the rest valid so that minItems still holds.
  const rest = Array.from({ length: Math.max(minItems - 1, 0) }, () => validItem);
  walkSchema(
    {
      schema: items,
      path: [...path, '0'],
      valid: validItem,
      place: (value) => walk.place([value, ...rest]),
      trail: [...walk.trail, locationText(items.site)],
    },
    out,
  );
}

function objectCases(walk: Walk, out: BodyCase[]): void {
  const { schema, path } = walk;
  const valid = isObject(walk.valid) ? walk.valid : {};
  const add = (title: string, value: unknown, role: CaseRole, param: string | null, keywordAt: string) =>
    out.push({
      title: `${describe(path)} ${title}`,
      body: walk.place(value),
      role,
      param,
      trail: [...walk.trail],
      keywordAt,
    });
  const required = schema.keyword('required');
  for (const name of schema.required) {
    const { [name]: _dropped, ...rest } = valid;
    add(
      `without its required ${name}`,
      rest,
      'missingParameter',
      [...path, name].join('.'),
      required?.at ?? locationText(schema.site),
    );
  }
  const additional = schema.keyword('additionalProperties');
  if (additional?.value === false)
    add(
      `with an unknown field ${unknownField}`,
      { ...valid, [unknownField]: 1 },
      'unknownParameter',
      [...path, unknownField].join('.'),
      additional.at,
    );
  const extra = schema.child('additionalProperties');
  const minProperties = schema.keyword('minProperties');
  if (typeof minProperties?.value === 'number' && minProperties.value === 1 && schema.required.length === 0)
    add('empty, below minProperties 1', {}, 'invalidParameter', paramOf(path), minProperties.at);
  const maxProperties = schema.keyword('maxProperties');
  if (typeof maxProperties?.value === 'number' && extra !== undefined) {
    const value: JsonObject = {};
    for (const key of validKeys(schema, maxProperties.value + 1)) value[key] = validValue(extra);
    add(
      `with more than maxProperties ${maxProperties.value}`,
      value,
      'invalidParameter',
      paramOf(path),
      maxProperties.at,
    );
  }
  const names = schema.child('propertyNames');
  if (names !== undefined && extra !== undefined) {
    const fill = validValue(extra);
    const badKeys: Array<[string, string, string]> = [];
    const minLength = names.keyword('minLength');
    if (typeof minLength?.value === 'number' && minLength.value > 0)
      badKeys.push(['a'.repeat(minLength.value - 1), `shorter than ${minLength.value}`, minLength.at]);
    const maxLength = names.keyword('maxLength');
    if (typeof maxLength?.value === 'number')
      badKeys.push(['k'.repeat(maxLength.value + 1), `longer than ${maxLength.value}`, maxLength.at]);
    const pattern = names.keyword('pattern');
    if (typeof pattern?.value === 'string') {
      const regex = pattern.value;
      const key = ['1conformance', '-conformance', 'conformance key', '!'].find(
        (item) => !matches(regex, item),
      );
      if (key !== undefined) badKeys.push([key, 'not matching its pattern', pattern.at]);
    }
    for (const [key, title, at] of badKeys)
      add(
        `with a key ${title} (${JSON.stringify(key)})`,
        { ...valid, [key]: fill },
        'invalidParameter',
        [...path, key].join('.'),
        at,
      );
  }
  for (const name of schema.propertyNames) {
    const property = schema.child('properties', name);
    if (property === undefined) continue;
    walkSchema(
      {
        schema: property,
        path: [...path, name],
        valid: Object.hasOwn(valid, name) ? valid[name] : validValue(property),
        place: (value) => walk.place({ ...valid, [name]: value }),
        trail: [...walk.trail, locationText(property.site)],
      },
      out,
    );
  }
  if (extra !== undefined) {
    const [key = 'k0'] = validKeys(schema, 1);
    walkSchema(
      {
        schema: extra,
        path: [...path, key],
        valid: validValue(extra),
        place: (value) => walk.place({ ...valid, [key]: value }),
        trail: [...walk.trail, locationText(extra.site)],
      },
      out,
    );
  }
}

function walkSchema(walk: Walk, out: BodyCase[]): void {
  const { schema, path } = walk;
  const types = schema.types;
  const typeKeyword = schema.keyword('type');
  if (path.length > 0 && typeKeyword !== undefined) {
    const wrong = wrongTypeCandidates.find((candidate) => !typeAllows(types, candidate));
    if (wrong !== undefined)
      out.push({
        title: `${describe(path)} of the wrong type (${jsonTypeOf(wrong)} for ${types.join(' or ')})`,
        body: walk.place(wrong),
        role: 'invalidParameter',
        param: paramOf(path),
        trail: [...walk.trail],
        keywordAt: typeKeyword.at,
      });
  }
  const members = schema.members;
  if (members !== undefined && path.length > 0 && !members.includes(notAMember))
    out.push({
      title: `${describe(path)} not one of its allowed values`,
      body: walk.place(notAMember),
      role: 'invalidParameter',
      param: paramOf(path),
      trail: [...walk.trail],
      keywordAt: schema.membersAt ?? locationText(schema.site),
    });
  if (types.includes('string') && members === undefined) stringCases(walk, out);
  if (types.includes('integer') || types.includes('number')) numberCases(walk, out);
  if (types.includes('array')) arrayCases(walk, out);
  if (types.includes('object')) objectCases(walk, out);
}

/**
 * Every negative case of a request body schema. `overrides` gives valid values by field name where the spec's
 * example would not do for the target (a webhook URL the suite chooses).
 */
export function bodyCases(schema: ResolvedSchema, overrides: ValidOverrides = {}): BodyCase[] {
  const out: BodyCase[] = [];
  walkSchema(
    { schema, path: [], valid: minimalBody(schema, overrides), place: (value) => value, trail: [] },
    out,
  );
  return out;
}

/** The smallest valid body: its required fields only, each from the spec's example or the override. */
export function minimalBody(schema: ResolvedSchema, overrides: ValidOverrides = {}): JsonObject {
  const body: JsonObject = {};
  for (const name of schema.required) {
    const property = schema.child('properties', name);
    if (property === undefined) throw new Error(`required ${name} has no schema`);
    body[name] = Object.hasOwn(overrides, name) ? overrides[name] : validValue(property);
  }
  return body;
}

/**
 * A small valid body: the required fields, and where the schema asks for at least one field and none is required
 * (an update), its first property. `overrides` gives values by field name.
 */
export function validBody(schema: ResolvedSchema, overrides: ValidOverrides = {}): JsonObject {
  const body = minimalBody(schema, overrides);
  const [first] = schema.propertyNames;
  if (Object.keys(body).length < (schema.number('minProperties') ?? 0) && first !== undefined) {
    const property = schema.child('properties', first);
    if (property !== undefined)
      body[first] = Object.hasOwn(overrides, first) ? overrides[first] : validValue(property);
  }
  return body;
}

import { formatJsonPointer } from '../../runtime/json-pointer.js';
import type { Requirement } from './requirement.js';
import { surfaceOf } from './surface.js';

/**
 * Extensions that hold a policy as a list of rules: each rule becomes a requirement of its own, so one check cannot
 * "cover" ten promises, and a rule added to the spec shows up as not covered until a check names it.
 */
export const ruleSetExtensions = ['x-ingest-rules', 'x-connection-rules', 'x-webhook-delivery'] as const;

/** Keys that describe a rule set rather than state a rule. */
const descriptiveKeys = new Set(['description', 'x-inferred']);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `maxMessageBytes` → `MAX-MESSAGE-BYTES`, `multipleV1` → `MULTIPLE-V1`, `1000` → `1000`. */
function slug(token: string | number): string {
  return String(token)
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9_]+/g, '-')
    .toUpperCase();
}

/** `x-ingest-rules` → `INGEST`, `x-webhook-delivery` → `WEBHOOK-DELIVERY`. */
export function ruleSetSlug(extension: string): string {
  return slug(extension.replace(/^x-/, '').replace(/-rules$/, ''));
}

export function ruleId(extension: string, path: ReadonlyArray<string | number>): string {
  return ['RULE', ruleSetSlug(extension), ...path.map(slug)].join('-');
}

/** The words of a rule: a scalar as is, a row of a table as `key value; key value`. */
function ruleText(value: unknown): string {
  if (isObject(value))
    return Object.entries(value)
      .filter(([key]) => !descriptiveKeys.has(key))
      .map(([key, each]) => `${key} ${ruleText(each)}`)
      .join('; ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A table: every member an object with the same keys (close codes by name), so each member is one rule. */
function isTable(node: Json): boolean {
  const members = Object.entries(node).filter(([key]) => !descriptiveKeys.has(key));
  if (members.length < 2 || !members.every(([, value]) => isObject(value))) return false;
  const shape = (value: unknown) =>
    Object.keys(value as Json)
      .sort()
      .join(',');
  const first = shape(members[0]?.[1]);
  return members.every(([, value]) => shape(value) === first);
}

interface Provenance {
  /** The nearest mark above (or on) a rule: a traceability statement documents it, or x-inferred gives the reason. */
  source: 'documented' | 'inferred';
  reason: string | null;
}

interface Walk {
  file: string;
  extension: string;
  documentedPointers: ReadonlySet<string>;
  out: Requirement[];
}

function provenanceAt(location: string, node: unknown, inherited: Provenance, walk: Walk): Provenance {
  if (walk.documentedPointers.has(location)) return { source: 'documented', reason: null };
  if (isObject(node) && typeof node['x-inferred'] === 'string')
    return { source: 'inferred', reason: node['x-inferred'] };
  return inherited;
}

function addRule(
  walk: Walk,
  tokens: Array<string | number>,
  path: Array<string | number>,
  value: unknown,
  inherited: Provenance,
): void {
  const location = `${walk.file}#${formatJsonPointer(tokens)}`;
  const provenance = provenanceAt(location, value, inherited, walk);
  walk.out.push({
    id: ruleId(walk.extension, path),
    statement: `${walk.extension} ${path.join('.')}: ${ruleText(value)}`,
    source: provenance.source,
    pointers: [location],
    surface: surfaceOf([location]),
    ...(provenance.reason === null ? {} : { reason: provenance.reason }),
  });
}

function walkRules(
  walk: Walk,
  node: unknown,
  tokens: Array<string | number>,
  path: Array<string | number>,
  inherited: Provenance,
): void {
  const location = `${walk.file}#${formatJsonPointer(tokens)}`;
  const provenance = provenanceAt(location, node, inherited, walk);
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      addRule(walk, [...tokens, index], [...path, index], item, provenance);
    });
    return;
  }
  if (!isObject(node) || '$ref' in node) {
    addRule(walk, tokens, path, node, inherited);
    return;
  }
  const table = isTable(node);
  for (const [key, child] of Object.entries(node)) {
    if (descriptiveKeys.has(key)) continue;
    if (table) addRule(walk, [...tokens, key], [...path, key], child, provenance);
    else walkRules(walk, child, [...tokens, key], [...path, key], provenance);
  }
}

/**
 * One requirement per rule of every rule set in one spec file: `RULE-<set>-<path>`, documented when a traceability
 * statement points at the rule or above it, else inferred with the nearest x-inferred reason.
 */
export function collectRules(
  document: unknown,
  file: string,
  documentedPointers: ReadonlySet<string>,
  out: Requirement[],
  tokens: Array<string | number> = [],
): void {
  if (Array.isArray(document)) {
    document.forEach((item, index) => {
      collectRules(item, file, documentedPointers, out, [...tokens, index]);
    });
    return;
  }
  if (!isObject(document)) return;
  for (const [key, child] of Object.entries(document)) {
    const isRuleSet =
      (ruleSetExtensions as readonly string[]).includes(key) && isObject(child) && !('$ref' in child);
    if (isRuleSet) {
      const walk: Walk = { file, extension: key, documentedPointers, out };
      walkRules(walk, child, [...tokens, key], [], { source: 'inferred', reason: null });
    } else collectRules(child, file, documentedPointers, out, [...tokens, key]);
  }
}

export function isRuleSetKey(key: string): boolean {
  return (ruleSetExtensions as readonly string[]).includes(key);
}

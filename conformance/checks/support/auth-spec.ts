// Header rules read from spec/openapi.yaml at run time (generated code carries no header patterns), so the checks
// judge WWW-Authenticate and the rate-limit fields by the spec's own patterns instead of restating them.
import path from 'node:path';
import { readYamlFile } from '../../../runtime/yaml-file.js';

const specFile = path.resolve(import.meta.dirname, '../../../spec/openapi.yaml');
let document: unknown = null;

function at(value: unknown, tokens: readonly string[]): unknown {
  let current = value;
  for (const token of tokens) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

function openapi(): unknown {
  document ??= readYamlFile(specFile);
  return document;
}

/** Follows a local `$ref` (`#/components/headers/RateLimit`) once per hop. */
function resolved(value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 8; hops += 1) {
    const reference = at(current, ['$ref']);
    if (typeof reference !== 'string' || !reference.startsWith('#/')) return current;
    current = at(openapi(), reference.slice(2).split('/'));
  }
  throw new Error('a $ref chain too long in spec/openapi.yaml');
}

export interface HeaderRule {
  /** The header's name as the spec spells it. */
  name: string;
  type: string | undefined;
  pattern: RegExp | undefined;
  minimum: number | undefined;
  constant: unknown;
}

/** The headers a response declares, with their schemas: a shared one (`TooManyRequests`) or an operation's. */
export function responseHeaders(
  response: string | { path: string; method: string; status: string },
): HeaderRule[] {
  const tokens =
    typeof response === 'string'
      ? ['components', 'responses', response, 'headers']
      : ['paths', response.path, response.method.toLowerCase(), 'responses', response.status, 'headers'];
  const headers = resolved(at(openapi(), tokens));
  if (headers === null || typeof headers !== 'object') throw new Error(`no headers at ${tokens.join(' ')}`);
  return Object.entries(headers).map(([name, declared]) => {
    const schema = resolved(at(resolved(declared), ['schema']));
    const type = at(schema, ['type']);
    const pattern = at(schema, ['pattern']);
    const minimum = at(schema, ['minimum']);
    return {
      name,
      type: typeof type === 'string' ? type : undefined,
      pattern: typeof pattern === 'string' ? new RegExp(pattern) : undefined,
      minimum: typeof minimum === 'number' ? minimum : undefined,
      constant: at(schema, ['const']),
    };
  });
}

/** One declared header of a shared response; a bug of the suite when the spec has no such header. */
export function responseHeader(response: Parameters<typeof responseHeaders>[0], name: string): HeaderRule {
  const rule = responseHeaders(response).find(
    (candidate) => candidate.name.toLowerCase() === name.toLowerCase(),
  );
  if (rule === undefined)
    throw new Error(`the response ${JSON.stringify(response)} declares no ${name} header`);
  return rule;
}

/** Whether a header value fits its schema: its const or pattern for strings, a decimal integer at or above the minimum. */
export function fitsRule(rule: HeaderRule, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (rule.type === 'integer') {
    if (!/^[0-9]+$/.test(value)) return false;
    return rule.minimum === undefined || Number(value) >= rule.minimum;
  }
  if (rule.constant !== undefined && value !== rule.constant) return false;
  return rule.pattern === undefined || rule.pattern.test(value);
}

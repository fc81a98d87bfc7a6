import { readdirSync } from 'node:fs';
import path from 'node:path';
import { formatJsonPointer } from '../../runtime/json-pointer.js';
import { readYamlFile } from '../../runtime/yaml-file.js';
import type { Requirement } from './requirement.js';
import { collectRules, isRuleSetKey } from './rules.js';
import { surfaceOf } from './surface.js';

export { surfaceOf };

interface TraceabilityFile {
  statements: Array<{ id: string; kind: string; quote: string; pointers: string[]; source?: 'erratum' }>;
}

/** `INF-` and the location in capitals: `openapi.yaml#/x-limits` → `INF-OPENAPI-X-LIMITS`. */
export function inferredId(file: string, pointer: string): string {
  const slug = `${file.replace(/\.ya?ml$/, '')}${pointer}`
    .replace(/~1/g, '-')
    .replace(/[^A-Za-z0-9_]+/g, '-')
    .replace(/^-|-$/g, '')
    .toUpperCase();
  return `INF-${slug}`;
}

/** Array members named by their `const` where they have one (`ERROR-CODE-ONEOF-PARAMETER_INVALID`), so ids read well. */
function collectInferred(
  value: unknown,
  file: string,
  tokens: Array<string | number>,
  labels: Array<string | number>,
  out: Requirement[],
): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const named =
        item !== null && typeof item === 'object' && typeof (item as { const?: unknown }).const === 'string';
      const label = named ? String((item as { const: string }).const) : index;
      collectInferred(item, file, [...tokens, index], [...labels, label], out);
    });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const node = value as Record<string, unknown>;
  if (typeof node['x-inferred'] === 'string') {
    const location = `${file}#${formatJsonPointer(tokens)}`;
    out.push({
      id: inferredId(file, formatJsonPointer(labels)),
      statement: node['x-inferred'],
      source: 'inferred',
      pointers: [location],
      surface: surfaceOf([location]),
    });
  }
  for (const [key, child] of Object.entries(node)) {
    // A rule set's x-inferred reasons travel with its rules (rules.ts), one requirement per rule.
    if (isRuleSetKey(key)) continue;
    collectInferred(child, file, [...tokens, key], [...labels, key], out);
  }
}

/**
 * The requirement catalogue: every statement of spec/traceability.yaml (documented, or erratum), every element of
 * the spec marked `x-inferred` (inferred) outside the rule sets, and every rule of a rule set (`RULE-`), each with a
 * stable id.
 */
export function buildCatalogue(specDirectory: string): Requirement[] {
  const traceability = readYamlFile(path.join(specDirectory, 'traceability.yaml')) as TraceabilityFile;
  const documented: Requirement[] = traceability.statements.map((statement) => ({
    id: statement.id,
    statement: statement.quote,
    source: statement.source ?? 'documented',
    pointers: statement.pointers,
    surface: surfaceOf([statement.id, ...statement.pointers]),
  }));
  const inferred: Requirement[] = [];
  const rules: Requirement[] = [];
  const documentedPointers = new Set(traceability.statements.flatMap((statement) => statement.pointers));
  const files = [
    'openapi.yaml',
    'asyncapi.yaml',
    ...readdirSync(path.join(specDirectory, 'schemas')).map((name) => `schemas/${name}`),
  ];
  for (const file of files.sort()) {
    const document = readYamlFile(path.join(specDirectory, file));
    collectInferred(document, file, [], [], inferred);
    collectRules(document, file, documentedPointers, rules);
  }
  return [...documented, ...inferred, ...rules];
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { resolveJsonPointer } from '../../runtime/json-pointer.js';

/** One statement of the interface document and the places in the spec that carry it. */
export interface TraceabilityStatement {
  id: string;
  kind: string;
  source: 'documented' | 'erratum';
  quote: string;
  pointers: string[];
}

export interface Traceability {
  document: string;
  statements: TraceabilityStatement[];
}

export function loadTraceability(specDirectory: string): Traceability {
  const raw = YAML.parse(readFileSync(path.join(specDirectory, 'traceability.yaml'), 'utf8')) as {
    document: string;
    statements: Array<Omit<TraceabilityStatement, 'source'> & { source?: 'erratum' }>;
  };
  return {
    document: raw.document,
    statements: raw.statements.map((statement) => ({
      ...statement,
      source: statement.source ?? 'documented',
    })),
  };
}

/** Resolves `<file>#<pointer>` against the spec folder; parsed files are cached by the caller's map. */
export function resolveSpecPointer(
  specDirectory: string,
  reference: string,
  cache: Map<string, unknown> = new Map(),
): unknown {
  const [file = '', pointer = ''] = reference.split('#', 2);
  if (!cache.has(file)) {
    cache.set(file, YAML.parse(readFileSync(path.join(specDirectory, file), 'utf8')));
  }
  return resolveJsonPointer(cache.get(file), pointer);
}

import type { JsonObject } from '../../ir/json.js';
import type { ApiModel, JsonSchema, NamedSchema } from '../../ir/model.js';
import { isSchemaRef } from '../types/synthetic-openapi.js';
import { compilableSchema } from './annotations.js';
import { type CompileEntry, namedSchemaRef, targetRef } from './compile.js';
import type { TargetDraft } from './target-draft.js';
import { targetDrafts } from './target-drafts.js';

/** A validator wrapped for one thing the spec describes (a body, a parameter set, a response, a payload). */
export interface ValidationTarget extends Omit<TargetDraft, 'baseName' | 'schema'> {
  exportName: string;
  /** The standalone function it wraps: its own, or the named schema's when its schema is a bare reference. */
  compiledName: string;
  /** The schema to compile, or null when it reuses a named schema's function. */
  schema: JsonObject | null;
}

/** Validator, guard and assertion of one named schema. */
export interface SchemaGuard {
  schema: NamedSchema;
  validateName: string;
  guardName: string;
  assertName: string;
}

export interface ValidationPlan {
  guards: SchemaGuard[];
  targets: ValidationTarget[];
}

/** Hands out each name once; a second claim gets the first free numbered variant, in claim order. */
function nameAllocator(): (candidate: string) => string {
  const taken = new Set<string>();
  return (candidate) => {
    let name = candidate;
    for (let suffix = 2; taken.has(name); suffix += 1) name = `${candidate}${suffix}`;
    taken.add(name);
    return name;
  };
}

function referencedName(schema: JsonSchema): string | null {
  return isSchemaRef(schema) ? schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1) : null;
}

/**
 * Every validator the artifact exports, with unique names: named schemas claim theirs first, then operations,
 * webhooks and channels in the IR's (sorted) order, so the same model always gives the same names.
 */
export function planValidators(model: ApiModel): ValidationPlan {
  const claim = nameAllocator();
  const guards = model.schemas.map((schema) => ({
    schema,
    validateName: claim(`validate${schema.name}`),
    guardName: claim(`is${schema.name}`),
    assertName: claim(`assert${schema.name}`),
  }));
  const compiledNameOf = new Map(guards.map((guard) => [guard.schema.name, guard.validateName]));
  const targets = targetDrafts(model).map(({ baseName, schema, ...draft }): ValidationTarget => {
    const exportName = claim(`validate${baseName}`);
    const reused = draft.parameters ? undefined : compiledNameOf.get(referencedName(schema) ?? '');
    return reused === undefined
      ? { ...draft, exportName, compiledName: exportName, schema: compilableSchema(schema) }
      : { ...draft, exportName, compiledName: reused, schema: null };
  });
  return { guards, targets };
}

/** Named schemas and targets with a schema of their own, split by the module (and Ajv options) they compile into. */
export function compileEntries({
  guards,
  targets,
}: ValidationPlan): Record<'values' | 'parameters', CompileEntry[]> {
  const named = guards.map((guard) => ({
    name: guard.validateName,
    schema: null,
    ref: namedSchemaRef(guard.schema.name),
    origin: guard.schema.origin,
  }));
  const own = (parameters: boolean) =>
    targets.flatMap(({ compiledName, schema, origin, ...target }) =>
      schema === null || target.parameters !== parameters
        ? []
        : [{ name: compiledName, schema, ref: targetRef(compiledName), origin }],
    );
  return { values: [...named, ...own(false)], parameters: own(true) };
}

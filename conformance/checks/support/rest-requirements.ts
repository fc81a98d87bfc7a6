// Which requirements a spec location belongs to, from the catalogue's own pointers: a case that breaks
// `schemas/common.yaml#/$defs/Title/maxLength` checks the requirement written there, not one named by hand.
import type { Requirement } from '../../catalogue/requirement.js';
import { catalogue } from '../../harness/catalogue.js';
import { currentTarget } from '../../harness/target.js';

function contains(pointer: string, location: string): boolean {
  if (pointer.endsWith('#')) return location.startsWith(pointer);
  return location === pointer || location.startsWith(`${pointer}/`);
}

/** The requirements whose pointer holds the location most closely (the deepest ones; several when they tie). */
export function requirementsAt(location: string): Requirement[] {
  let best: Requirement[] = [];
  let depth = -1;
  for (const requirement of catalogue()) {
    for (const pointer of requirement.pointers) {
      if (!contains(pointer, location)) continue;
      if (pointer.length > depth) {
        best = [requirement];
        depth = pointer.length;
      } else if (pointer.length === depth && !best.includes(requirement)) best.push(requirement);
    }
  }
  return best;
}

export function isDocumented(requirement: Requirement): boolean {
  return requirement.source !== 'inferred';
}

/** Whether a location is documented: one of its closest requirements is a statement of the interface document. */
export function documentedAt(location: string): boolean {
  return requirementsAt(location).some(isDocumented);
}

/** Whether a statement of the interface document points at exactly this location. */
export function documentedExactly(location: string): boolean {
  return catalogue().some(
    (requirement) => isDocumented(requirement) && requirement.pointers.includes(location),
  );
}

/** Whether any statement of the interface document points into this spec file (`schemas/create-stream-request.yaml`). */
export function documentedInside(file: string): boolean {
  return catalogue().some(
    (requirement) =>
      isDocumented(requirement) && requirement.pointers.some((pointer) => pointer.startsWith(`${file}#`)),
  );
}

export function requirementById(id: string): Requirement {
  const found = catalogue().find((requirement) => requirement.id === id);
  if (found === undefined) throw new Error(`no requirement ${id} in the catalogue`);
  return found;
}

/** The catalogue id of an error code's element (`INF-SCHEMAS-ERROR-CODE-ONEOF-PARAMETER_INVALID`), if inferred. */
export function inferredCodeRequirement(code: string): string | undefined {
  const id = `INF-SCHEMAS-ERROR-CODE-ONEOF-${code.toUpperCase()}`;
  return catalogue().some((requirement) => requirement.id === id) ? id : undefined;
}

/** Whether the run judges inferred requirements too (profile `full`): then inferred details are asserted as well. */
export function judgesInferred(): boolean {
  return currentTarget().profile === 'full';
}

export function unique(ids: Iterable<string>): string[] {
  return [...new Set(ids)];
}

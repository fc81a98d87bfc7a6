import type { ApiModel } from '../../ir/model.js';
import { camelCase, stringLiteral } from '../../ir/names.js';
import type { SymbolTable } from '../symbols.js';
import { findErrorCatalogue } from '../types/error-catalogue.js';

/** The catalogue roles (`x-role`, camel-cased as `errorRoles` keys them) a failed validation answers with. */
const roles = ['missingParameter', 'invalidParameter', 'unknownParameter'] as const;

/**
 * Generic defaults, for a spec without an error catalogue or whose catalogue lacks a role: type `invalid_request`,
 * and the role's name in snake case as the code (`missing_parameter`, `invalid_parameter`, `unknown_parameter`).
 */
const defaultType = 'invalid_request';

function defaultCode(role: string): string {
  return role.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export interface FailureCodesSource {
  /** The object literal of the generated `failureCodes` constant (`FailureCodes` of runtime/ajv-errors.ts). */
  initializer: string;
  /** The catalogue's `errorCodes` and `errorRoles` symbols, when the literal reads them. */
  catalogue: {
    codes: { file: string; exportName: string };
    roles: { file: string; exportName: string };
  } | null;
}

/** Codes come from the generated catalogue (never restated here); roles it does not play fall back to defaults. */
export function failureCodesSource(model: ApiModel, symbols: SymbolTable): FailureCodesSource {
  const catalogued = new Set(
    (findErrorCatalogue(model)?.codes ?? []).flatMap((code) =>
      code.role === null ? [] : [camelCase(code.role)],
    ),
  );
  const available =
    symbols.has('types', 'error-catalogue', 'codes') && symbols.has('types', 'error-catalogue', 'roles');
  const catalogue = available
    ? {
        codes: symbols.lookup('types', 'error-catalogue', 'codes'),
        roles: symbols.lookup('types', 'error-catalogue', 'roles'),
      }
    : null;
  const entries = roles.map((role) => {
    if (catalogue === null || !catalogued.has(role)) {
      return `${role}: { type: ${stringLiteral(defaultType)}, code: ${stringLiteral(defaultCode(role))} },`;
    }
    const code = `${catalogue.roles.exportName}.${role}`;
    return `${role}: { type: ${catalogue.codes.exportName}[${code}].type, code: ${code} },`;
  });
  const usesCatalogue = catalogue !== null && roles.some((role) => catalogued.has(role));
  return { initializer: `{\n${entries.join('\n')}\n}`, catalogue: usesCatalogue ? catalogue : null };
}

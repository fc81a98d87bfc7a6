import { isDeepStrictEqual } from 'node:util';
import { isObject } from '../../ir/json.js';
import type { ApiModel } from '../../ir/model.js';
import { camelCase } from '../../ir/names.js';
import type { Problem } from '../../problems.js';
import type { ErrorCatalogue } from '../types/error-catalogue.js';
import { rejectsUnknownQuery } from '../validators/parameter-schema.js';
import { refName } from './flatten-schema.js';
import { problemAt } from './problems.js';

/** What the generated server takes from the spec besides operations: request ids and the body limit. */
export interface ServerFacts {
  requestIdHeader: string;
  requestIdPrefix: string;
  requestIdLength: number;
  bodyLimit: number | null;
}

/** The catalogue parts (`x-role`) the server renders by itself; errorRoles keys are their camelCase names. */
export const serverRoles = [
  'route-not-found',
  'method-not-allowed',
  'malformed-body',
  'unsupported-content-type',
  'body-too-large',
  'internal-error',
] as const;

/** Needed only by a spec that refuses unknown query parameters: operations without any get no query validator. */
export const unknownParameterRole = 'unknown-parameter';

/** The errorRoles keys the generated plugin hands over. */
export function serverRoleKeys(model: ApiModel): string[] {
  const roles = rejectsUnknownQuery(model) ? [...serverRoles, unknownParameterRole] : serverRoles;
  return roles.map((role) => camelCase(role));
}

function requestIdSchema(catalogue: ErrorCatalogue): unknown {
  const envelope = catalogue.envelope.schema;
  const error = isObject(envelope) && isObject(envelope.properties) ? envelope.properties.error : undefined;
  return isObject(error) && isObject(error.properties) ? error.properties.requestId : undefined;
}

// `^<prefix>[A-Za-z0-9]{min,max}$`: the one request id pattern whose ids the server can make.
const base62Pattern = /^\^([A-Za-z0-9_-]*)\[A-Za-z0-9\]\{(\d+),(\d+)\}\$$/;

function idFormat(schema: unknown, origin: string, problems: Problem[]) {
  const pattern = isObject(schema) ? schema.pattern : undefined;
  const match = typeof pattern === 'string' ? base62Pattern.exec(pattern) : null;
  if (match === null) {
    const message =
      'request ids follow no `^<prefix>[A-Za-z0-9]{m,n}$` pattern; the server makes unprefixed base62 ids';
    problems.push(problemAt(origin, message, 'warning'));
  }
  // 16 characters, as in the spec's examples, within the pattern's bounds.
  const length = Math.min(Math.max(16, Number(match?.[2] ?? 16)), Number(match?.[3] ?? 16));
  return { prefix: match?.[1] ?? '', length };
}

/**
 * The request id header is the response header whose schema is the named schema of the envelope's `requestId`
 * (`Request-Id` when no response declares one, or the id's schema is inline and so names nothing); ids follow that
 * schema's pattern.
 */
export function serverFacts(model: ApiModel, catalogue: ErrorCatalogue, problems: Problem[]): ServerFacts {
  const idSchema = requestIdSchema(catalogue);
  const header = model.operations
    .flatMap((operation) => operation.responses.flatMap((response) => response.headers))
    .find((candidate) => refName(idSchema) !== null && isDeepStrictEqual(candidate.schema, idSchema));
  const named = model.schemas.find((schema) => schema.name === refName(idSchema));
  const { prefix, length } = idFormat(
    named?.schema ?? idSchema,
    named?.origin ?? catalogue.envelope.origin,
    problems,
  );
  const limits = model.extensions['x-limits'];
  const bodyLimit =
    isObject(limits) && typeof limits.maxRequestBodyBytes === 'number' ? limits.maxRequestBodyBytes : null;
  return {
    requestIdHeader: header?.name ?? 'Request-Id',
    requestIdPrefix: prefix,
    requestIdLength: length,
    bodyLimit,
  };
}

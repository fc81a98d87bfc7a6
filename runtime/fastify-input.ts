import type { FastifyRequest } from 'fastify';
import { problemFor, problemFromDetail, type ServerErrorCatalogue } from './fastify-errors.js';
import type { OperationRoute, OperationValidators } from './fastify-routes.js';
import type { Validator } from './validation-result.js';

/** What validating one request needs: its route, its precompiled validators and the catalogue for refusals. */
export interface InputRules {
  route: OperationRoute;
  validators: OperationValidators;
  catalogue: ServerErrorCatalogue;
  closedQuery: boolean;
}

function validated(
  catalogue: ServerErrorCatalogue,
  validator: Validator<unknown> | undefined,
  value: unknown,
) {
  if (validator === undefined) return {};
  const result = validator(value);
  if (!result.ok) throw problemFromDetail(catalogue, result.error);
  return result.value;
}

function validatedQuery({ route, validators, catalogue, closedQuery }: InputRules, query: unknown): unknown {
  if (validators.query !== undefined || !closedQuery) return validated(catalogue, validators.query, query);
  const [unknown] = Object.keys(query ?? {});
  if (unknown === undefined) return {};
  throw problemFor(
    catalogue,
    'unknownParameter',
    `${route.operationId} takes no query parameter ${unknown}.`,
    unknown,
  );
}

/** The declared header parameters under the names the spec gives them, which is what the validator checks. */
function declaredHeaders(route: OperationRoute, request: FastifyRequest): Record<string, unknown> {
  return Object.fromEntries(
    (route.headerParameters ?? []).flatMap((name) => {
      const value = request.headers[name.toLowerCase()];
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

function validatedBody({ route, validators, catalogue }: InputRules, body: unknown): unknown {
  if (route.requestBody === null || validators.body === undefined) return undefined;
  if (body === undefined && !route.requestBody.required) return undefined;
  return validated(catalogue, validators.body, body);
}

/** Path, query, headers and body through the precompiled validators; the first failure is thrown as a problem. */
export function validatedInput(rules: InputRules, request: FastifyRequest) {
  return {
    params: validated(rules.catalogue, rules.validators.path, request.params),
    query: validatedQuery(rules, request.query),
    // Most operations declare no header parameter: nothing to gather or check then.
    headers:
      rules.validators.headers === undefined
        ? {}
        : validated(rules.catalogue, rules.validators.headers, declaredHeaders(rules.route, request)),
    body: validatedBody(rules, request.body),
  };
}

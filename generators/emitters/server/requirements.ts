import type { ApiModel, Operation } from '../../ir/model.js';
import type { EmitContext } from '../generated-file.js';
import type { ErrorCatalogue } from '../types/error-catalogue.js';
import { rejectsUnknownQuery } from '../validators/parameter-schema.js';
import { problemAt } from './problems.js';
import { serverRoles, unknownParameterRole } from './spec-facts.js';

export type RequestPart = 'path' | 'query' | 'headers' | 'body';

const parameterLocations = { path: 'path', query: 'query', headers: 'header' } as const;

/** The parts of a request the operation defines, each of which needs a precompiled validator. */
export function definedParts(operation: Operation): RequestPart[] {
  const parts = (['path', 'query', 'headers'] as const).filter((part) =>
    operation.parameters.some((parameter) => parameter.in === parameterLocations[part]),
  );
  return operation.requestBody === null ? parts : [...parts, 'body'];
}

export function validatorId(operation: Operation, part: RequestPart): string {
  return `${operation.id}.${part}`;
}

function openapiFile(model: ApiModel): string {
  return model.sources.find((source) => source.kind === 'openapi')?.file ?? '';
}

/**
 * The server imports the types artifact's catalogue and the validators artifact's precompiled validators (it compiles
 * no schema at run time); each missing piece is one problem. Returns whether the server can be emitted.
 */
export function checkRequirements(
  { model, config, symbols, problems }: EmitContext,
  catalogue: ErrorCatalogue,
): boolean {
  const before = problems.length;
  for (const artifact of ['types', 'validators'] as const) {
    if (!config.artifacts.includes(artifact)) {
      problems.push(
        problemAt(
          openapiFile(model),
          `the server artifact needs the ${artifact} artifact; add it to artifacts`,
        ),
      );
    }
  }
  const roles = new Set(catalogue.codes.map((code) => code.role));
  const needed = rejectsUnknownQuery(model) ? [...serverRoles, unknownParameterRole] : serverRoles;
  const missingRoles = needed.filter((role) => !roles.has(role));
  if (missingRoles.length > 0) {
    const message = `the error catalogue has no code with x-role ${missingRoles.join(', ')}, which the server renders`;
    problems.push(problemAt(catalogue.envelope.origin, message));
  }
  if (config.artifacts.includes('validators') && symbols.all('validators', 'operation-input').length === 0) {
    problems.push(
      problemAt(
        openapiFile(model),
        'the validators artifact declares no operation-input validators, which the server needs',
      ),
    );
  } else if (config.artifacts.includes('validators')) {
    for (const operation of model.operations) {
      for (const part of definedParts(operation)) {
        if (symbols.has('validators', 'operation-input', validatorId(operation, part))) continue;
        problems.push(
          problemAt(operation.origin, `no precompiled validator for ${validatorId(operation, part)}`),
        );
      }
    }
  }
  return problems.length === before;
}

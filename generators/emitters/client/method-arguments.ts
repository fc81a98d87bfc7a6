import type { Operation, Parameter } from '../../ir/model.js';
import { camelCase, stringLiteral } from '../../ir/names.js';
import type { Imports } from './imports.js';

/** One argument of a generated method, in order: path parameters, body, query, headers, options. */
export interface Argument {
  name: string;
  type: string;
  /** Callers may leave it out (every later argument may be left out too). */
  optional: boolean;
  role: 'path' | 'body' | 'query' | 'headers' | 'options';
  /** The parameter's name in the spec, for path parameters. */
  specName?: string;
}

const fixedNames = new Set(['body', 'query', 'headers', 'options']);

function pathParameters(operation: Operation): Parameter[] {
  const declared = operation.parameters.filter((parameter) => parameter.in === 'path');
  const order = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  return declared.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
}

function group(operation: Operation, where: Parameter['in']) {
  const parameters = operation.parameters.filter((parameter) => parameter.in === where);
  return { present: parameters.length > 0, required: parameters.some((parameter) => parameter.required) };
}

/**
 * Path parameters come first and positional (`streams.retrieve(streamId)`), then the body, then the query and header
 * parameters each as one object typed by the types artifact. An argument is optional only when nothing required
 * follows it; otherwise it takes `undefined`.
 */
export function methodArguments(operation: Operation, imports: Imports): Argument[] {
  const parameters = () => imports.symbol('types', 'operation-parameters', operation.id);
  const drafts: Array<Omit<Argument, 'optional'> & { required: boolean }> = pathParameters(operation).map(
    (parameter) => {
      const name = camelCase(parameter.name);
      return {
        name: fixedNames.has(name) ? `${name}Parameter` : name,
        type: `${parameters()}['path'][${stringLiteral(parameter.name)}]`,
        required: true,
        role: 'path',
        specName: parameter.name,
      };
    },
  );
  if (operation.requestBody !== null) {
    const body = imports.symbol('types', 'operation-body', operation.id);
    drafts.push({ name: 'body', type: body, required: operation.requestBody.required, role: 'body' });
  }
  for (const [where, role] of [
    ['query', 'query'],
    ['header', 'headers'],
  ] as const) {
    const { present, required } = group(operation, where);
    if (present)
      drafts.push({ name: role, type: `NonNullable<${parameters()}['${where}']>`, required, role });
  }
  const requestOptions = imports.runtime('http/transport', 'RequestOptions', true);
  drafts.push({ name: 'options', type: requestOptions, required: false, role: 'options' });
  let tailOptional = true;
  const reversed = drafts.reverse().map(({ required, ...draft }) => {
    tailOptional &&= !required;
    return {
      ...draft,
      optional: tailOptional,
      type: required || tailOptional ? draft.type : `${draft.type} | undefined`,
    };
  });
  return reversed.reverse();
}

import { type InterfaceDeclarationStructure, StructureKind } from 'ts-morph';
import type { Operation } from '../../ir/model.js';
import { stringLiteral } from '../../ir/names.js';
import type { EmitContext } from '../generated-file.js';
import { docs } from './structures.js';

/** What a handler receives: validated path, query, headers and body, the `authenticate` result and the request id. */
export function inputInterface(
  operation: Operation,
  context: EmitContext,
  name: string,
): InterfaceDeclarationStructure {
  const isProtected = operation.security.length > 0;
  const parameters = context.symbols.lookup('types', 'operation-parameters', operation.id).exportName;
  const part = (location: 'path' | 'query' | 'header') =>
    operation.parameters.some((parameter) => parameter.in === location)
      ? `NonNullable<${parameters}[${stringLiteral(location)}]>`
      : 'Record<string, never>';
  const body =
    operation.requestBody === null ? null : context.symbols.lookup('types', 'operation-body', operation.id);
  const bodyType =
    body === null
      ? 'undefined'
      : `${body.exportName}${operation.requestBody?.required ? '' : ' | undefined'}`;
  return {
    kind: StructureKind.Interface,
    name,
    isExported: true,
    ...(isProtected ? { typeParameters: [{ name: 'Auth', default: 'unknown' }] } : {}),
    docs: docs(
      `What the ${operation.id} handler receives, validated (query and path values coerced, defaults applied).`,
      operation.origin,
    ),
    properties: [
      { name: 'params', type: part('path') },
      { name: 'query', type: part('query') },
      { name: 'headers', type: part('header') },
      { name: 'body', type: bodyType },
      {
        name: 'auth',
        type: isProtected ? 'Auth' : 'undefined',
        docs: ['What `authenticate` returned; undefined when the operation needs no authentication.'],
      },
      { name: 'requestId', type: 'string', docs: ['The id the response header and every error body carry.'] },
      { name: 'raw', type: 'FastifyRequest' },
    ],
  };
}

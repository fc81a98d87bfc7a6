import type { InterfaceDeclarationStructure } from 'ts-morph';
import { StructureKind } from 'ts-morph';
import type { ApiModel } from '../../ir/model.js';
import { pascalCase, propertyKey, stringLiteral } from '../../ir/names.js';
import type { EmitContext } from '../generated-file.js';
import type { SymbolDeclaration } from '../symbols.js';
import { definedParts, validatorId } from './requirements.js';
import type { ServerFacts } from './spec-facts.js';

/** `telemetryServer` for "Telemetry Streaming Service API": the first word of the OpenAPI title, then Server. */
export function pluginNames(model: ApiModel) {
  const title = model.sources.find((source) => source.kind === 'openapi')?.title ?? '';
  const word = pascalCase(title.split(/\s+/)[0] ?? '');
  const base = word === 'Unnamed' ? 'Api' : word;
  return { plugin: `${base.charAt(0).toLowerCase()}${base.slice(1)}Server`, options: `${base}ServerOptions` };
}

export const isProtected = (model: ApiModel) =>
  model.operations.some((operation) => operation.security.length > 0);

/**
 * Each operation's precompiled validators by request part: those the operation needs, and any other the validators
 * artifact declares for it.
 */
export function validatorTable({ model, symbols }: EmitContext) {
  const used = model.operations.map((operation) => {
    const parts = (['path', 'query', 'headers', 'body'] as const).filter(
      (part) =>
        definedParts(operation).includes(part) ||
        symbols.has('validators', 'operation-input', validatorId(operation, part)),
    );
    const validators = parts.map((part) => ({
      part,
      symbol: symbols.lookup('validators', 'operation-input', validatorId(operation, part)),
    }));
    const fields = validators.map(({ part, symbol }) => `${part}: ${symbol.exportName}`);
    return { entry: `${propertyKey(operation.id)}: { ${fields.join(', ')} },`, validators };
  });
  return {
    initializer: `{\n${used.map(({ entry }) => entry).join('\n')}\n}`,
    symbols: used.flatMap(({ validators }) => validators.map(({ symbol }): SymbolDeclaration => symbol)),
  };
}

export function optionsInterface(model: ApiModel, facts: ServerFacts): InterfaceDeclarationStructure {
  const authenticate = {
    name: 'authenticate',
    type: 'Authenticate<Auth>',
    docs: ['Runs before the body is read for every operation with security; throw an ApiProblem to refuse.'],
  };
  const prefix = stringLiteral(facts.requestIdPrefix);
  return {
    kind: StructureKind.Interface,
    name: pluginNames(model).options,
    isExported: true,
    typeParameters: [{ name: 'Auth', default: 'unknown' }],
    docs: [
      'What the implementation supplies: the handlers, its authentication and, optionally, request ids.',
    ],
    properties: [
      { name: 'handlers', type: 'Handlers<Auth>' },
      ...(isProtected(model) ? [authenticate] : []),
      {
        name: 'operations',
        hasQuestionToken: true,
        type: 'readonly string[]',
        docs: [
          'The operationIds to register (by default all): a deployment serves the operations of another server (`serverUrl`) on another listener.',
        ],
      },
      {
        name: 'renderError',
        hasQuestionToken: true,
        type: 'RenderError',
        docs: [
          'For operations whose errors are not the envelope (an RFC 6749 body, a page): the reply to send instead.',
        ],
      },
      {
        name: 'requestId',
        hasQuestionToken: true,
        type: '(request: FastifyRequest) => string',
        docs: [
          `Each request's id; by default ${prefix} and ${facts.requestIdLength} random base62 characters.`,
        ],
      },
    ],
  };
}

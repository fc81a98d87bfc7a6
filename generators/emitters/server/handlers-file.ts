import { StructureKind, type TypeAliasDeclarationStructure } from 'ts-morph';
import type { Operation } from '../../ir/model.js';
import { pascalCase, propertyKey } from '../../ir/names.js';
import type { EmitContext, GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import { relativeImport } from '../symbols.js';
import { inputInterface } from './input-interface.js';
import { replyMember } from './reply-member.js';
import { docs, importDeclaration, typeImports } from './structures.js';

export const handlersFile = 'server/handlers.ts';

export function handlerTypeNames(operation: Operation) {
  const base = pascalCase(operation.id);
  return { input: `${base}Input`, reply: `${base}Reply`, handler: `${base}Handler` };
}

const isProtected = (operation: Operation) => operation.security.length > 0;

function operationTypes(operation: Operation, context: EmitContext, requestIdHeader: string) {
  const names = handlerTypeNames(operation);
  const responses = context.symbols.lookup('types', 'operation-responses', operation.id).exportName;
  const members = operation.responses.map((response) =>
    replyMember(response, responses, context.model, requestIdHeader),
  );
  const generic = isProtected(operation) ? '<Auth>' : '';
  const aliases: TypeAliasDeclarationStructure[] = [
    {
      kind: StructureKind.TypeAlias,
      name: names.reply,
      isExported: true,
      type: members.map((member) => `\n| ${member}`).join(''),
      docs: docs(`The replies of ${operation.id}, by status.`, operation.origin),
    },
    {
      kind: StructureKind.TypeAlias,
      name: names.handler,
      isExported: true,
      ...(isProtected(operation) ? { typeParameters: [{ name: 'Auth', default: 'unknown' }] } : {}),
      type: `(request: ${names.input}${generic}) => Promise<${names.reply}>`,
      docs: docs(operation.summary ?? operation.id, operation.origin),
    },
  ];
  return [inputInterface(operation, context, names.input), ...aliases];
}

/** Per operation a handler type (typed input, reply typed by status), and `Handlers`, one for every operation. */
export function emitHandlersFile(context: EmitContext, requestIdHeader: string): GeneratedFile {
  const { model, symbols } = context;
  const typeSymbols = model.operations.flatMap((operation) => [
    ...(operation.parameters.length === 0
      ? []
      : [symbols.lookup('types', 'operation-parameters', operation.id)]),
    symbols.lookup('types', 'operation-responses', operation.id),
    ...(operation.requestBody === null ? [] : [symbols.lookup('types', 'operation-body', operation.id)]),
  ]);
  const imports = [
    importDeclaration('fastify', ['FastifyRequest'], true),
    ...typeImports(typeSymbols, (file) => relativeImport(handlersFile, file)),
  ];
  const handlersMap = model.operations.map((operation) => {
    const names = handlerTypeNames(operation);
    return `${propertyKey(operation.id)}: ${names.handler}${isProtected(operation) ? '<Auth>' : ''};`;
  });
  return printTypeScript(model, handlersFile, {
    statements: [
      ...imports,
      ...model.operations.flatMap((operation) => operationTypes(operation, context, requestIdHeader)),
      {
        kind: StructureKind.TypeAlias,
        name: 'Handlers',
        isExported: true,
        typeParameters: [{ name: 'Auth', default: 'unknown' }],
        type: `{\n${handlersMap.join('\n')}\n}`,
        docs: ['One handler for every operation; `Auth` is what the `authenticate` hook returns.'],
      },
    ],
  });
}

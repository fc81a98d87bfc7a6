import {
  type ClassDeclarationStructure,
  type MethodDeclarationStructure,
  Scope,
  StructureKind,
  VariableDeclarationKind,
  type VariableStatementStructure,
} from 'ts-morph';
import type { ApiModel } from '../../ir/model.js';
import { propertyKey, stringLiteral } from '../../ir/names.js';
import type { GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import type { SymbolTable } from '../symbols.js';
import { Imports } from './imports.js';
import { listAllMethod, returnType } from './list-methods.js';
import { type Argument, methodArguments } from './method-arguments.js';
import type { PaginationRules } from './pagination.js';
import { concreteUrl, type GroupPlan, type MethodPlan } from './plan.js';

function requestLiteral(plan: MethodPlan, args: readonly Argument[]): string {
  const { operation } = plan;
  const pathArguments = args.filter((argument) => argument.role === 'path');
  const fields = [
    `method: ${stringLiteral(operation.method.toUpperCase())}`,
    `path: ${stringLiteral(operation.path)}`,
  ];
  if (pathArguments.length > 0) {
    const entries = pathArguments.map((argument) => {
      const key = propertyKey(argument.specName ?? '');
      return key === argument.name ? key : `${key}: ${argument.name}`;
    });
    fields.push(`pathParameters: { ${entries.join(', ')} }`);
  }
  for (const argument of args) {
    if (argument.role === 'query' || argument.role === 'headers') fields.push(argument.name);
  }
  if (operation.requestBody !== null) {
    fields.push(`body: { contentType: ${stringLiteral(operation.requestBody.contentType)}, value: body }`);
  }
  fields.push(`response: ${stringLiteral(plan.response.kind)}`);
  if (operation.extensions['x-error-format'] === 'rfc6749') fields.push(`errorFormat: 'rfc6749'`);
  const server = concreteUrl(operation.serverUrl);
  if (server !== null) fields.push(`baseUrl: ${stringLiteral(server)}`);
  return `{\n${fields.join(',\n')},\n}`;
}

function operationMethod(plan: MethodPlan, imports: Imports, pagination: PaginationRules | null) {
  const args = methodArguments(plan.operation, imports);
  const result = returnType(plan, imports, pagination);
  const { summary, description, origin } = plan.operation;
  const method: MethodDeclarationStructure = {
    kind: StructureKind.Method,
    name: plan.name,
    parameters: args.map((argument) => ({
      name: argument.name,
      type: argument.type,
      hasQuestionToken: argument.optional,
    })),
    returnType: `Promise<${result}>`,
    statements: [`return this.transport.send<${result}>(${requestLiteral(plan, args)}, options);`],
    docs: [
      {
        description: [summary, description].filter((text) => text !== null).join('\n\n'),
        tags: [{ tagName: 'see', text: origin }],
      },
    ],
  };
  return plan.list === null || pagination === null
    ? [method]
    : [method, listAllMethod(plan, args, imports, pagination)];
}

function pageFieldsConstant(pagination: PaginationRules, imports: Imports): VariableStatementStructure {
  const pageFields = imports.runtime('http/paginate', 'PageFields', true);
  const fields = [
    `itemsField: ${stringLiteral(pagination.itemsField)}`,
    `nextCursorField: ${stringLiteral(pagination.nextCursorField)}`,
    ...(pagination.hasMoreField === null ? [] : [`hasMoreField: ${stringLiteral(pagination.hasMoreField)}`]),
  ];
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    docs: ["Where the pages of this API keep their items and next cursor (the spec's pagination rules)."],
    declarations: [
      {
        name: 'pageFields',
        type: `${pageFields}<${stringLiteral(pagination.itemsField)}>`,
        initializer: `{ ${fields.join(', ')} }`,
      },
    ],
  };
}

/** One class per resource group, `client.<group>`, with a method per operation. */
export function resourceFile(
  model: ApiModel,
  symbols: SymbolTable,
  group: GroupPlan,
  pagination: PaginationRules | null,
): GeneratedFile {
  const imports = new Imports(group.file, symbols);
  const transport = imports.runtime('http/transport', 'HttpTransport', true);
  const hasLists = pagination !== null && group.methods.some((method) => method.list !== null);
  const resource: ClassDeclarationStructure = {
    kind: StructureKind.Class,
    name: group.className,
    isExported: true,
    docs: [`The ${group.property} operations: \`client.${group.property}\`.`],
    ctors: [{ parameters: [{ name: 'transport', type: transport, scope: Scope.Private, isReadonly: true }] }],
    methods: group.methods.flatMap((method) => operationMethod(method, imports, pagination)),
  };
  const statements = [
    ...(hasLists && pagination !== null ? [pageFieldsConstant(pagination, imports)] : []),
    resource,
  ];
  return printTypeScript(model, group.file, { statements: [...imports.structures(), ...statements] });
}

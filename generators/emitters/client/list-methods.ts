import { type MethodDeclarationStructure, StructureKind } from 'ts-morph';
import { propertyKey, stringLiteral } from '../../ir/names.js';
import type { Imports } from './imports.js';
import type { Argument } from './method-arguments.js';
import type { PaginationRules } from './pagination.js';
import type { MethodPlan } from './plan.js';

/** The item type of a list page: the named item schema, else whatever the page type says its items are. */
function itemType(plan: MethodPlan, imports: Imports, pagination: PaginationRules, page: string): string {
  const itemSchema = plan.list?.itemSchema ?? null;
  if (itemSchema !== null) return imports.symbol('types', 'schema', itemSchema);
  return `${page}[${stringLiteral(pagination.itemsField)}] extends ReadonlyArray<infer Item> ? Item : unknown`;
}

/**
 * The success body's type: the 2xx body of the types artifact for JSON, with list pages' items typed (the page
 * schema alone may give `unknown[]`); text bodies are strings, other media types bytes.
 */
export function returnType(plan: MethodPlan, imports: Imports, pagination: PaginationRules | null): string {
  const { kind, status } = plan.response;
  if (kind === 'none') return 'undefined';
  if (kind === 'text') return 'string';
  if (kind === 'bytes') return 'Uint8Array';
  if (status === null) return 'unknown';
  const page = `${imports.symbol('types', 'operation-responses', plan.operation.id)}[${stringLiteral(status)}]`;
  if (plan.list === null || pagination === null) return page;
  const withItems = imports.runtime('http/paginate', 'WithItems', true);
  return `${withItems}<${page}, ${stringLiteral(pagination.itemsField)}, ${itemType(plan, imports, pagination, page)}>`;
}

/** `<list>All`: the same arguments, every item of every page as an async iterable, following the next cursor. */
export function listAllMethod(
  plan: MethodPlan,
  args: readonly Argument[],
  imports: Imports,
  pagination: PaginationRules,
): MethodDeclarationStructure {
  const items = imports.runtime('http/paginate', 'items');
  const page = `${imports.symbol('types', 'operation-responses', plan.operation.id)}[${stringLiteral(plan.response.status ?? '200')}]`;
  const cursor = propertyKey(pagination.cursorParameter);
  const callArguments = args.map((argument) =>
    argument.role === 'query'
      ? `cursor === undefined ? query : { ...query, ${cursor}: cursor }`
      : argument.name,
  );
  return {
    kind: StructureKind.Method,
    name: `${plan.name}All`,
    parameters: args.map((argument) => ({
      name: argument.name,
      type: argument.type,
      hasQuestionToken: argument.optional,
    })),
    returnType: `AsyncIterable<${itemType(plan, imports, pagination, page)}>`,
    statements: [`return ${items}((cursor) => this.${plan.name}(${callArguments.join(', ')}), pageFields);`],
    docs: [
      {
        description: `Every item of \`${plan.name}\`, page after page: each page's \`${pagination.nextCursorField}\` is sent as \`${pagination.cursorParameter}\` for the next.`,
        tags: [{ tagName: 'see', text: plan.operation.origin }],
      },
    ],
  };
}

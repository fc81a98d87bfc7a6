import type { ApiModel, Response } from '../../ir/model.js';
import { propertyKey, stringLiteral } from '../../ir/names.js';
import { flattenSchema } from './flatten-schema.js';

function headerValueType(schema: unknown, model: ApiModel): string {
  const flat = flattenSchema(schema, (name) => model.schemas.find((named) => named.name === name));
  const types = typeof flat.type === 'string' ? [flat.type] : Array.isArray(flat.type) ? flat.type : [];
  if (types.includes('integer') || types.includes('number')) return 'number';
  return types.includes('boolean') ? 'boolean' : 'string';
}

/** One member of the reply union; the request id header is the server's own and is left out. */
export function replyMember(
  response: Response,
  responses: string,
  model: ApiModel,
  requestIdHeader: string,
): string {
  const status = /^[1-5][0-9]{2}$/.test(response.status) ? response.status : 'number';
  const headers = response.headers.filter(
    (header) => header.name.toLowerCase() !== requestIdHeader.toLowerCase(),
  );
  const fields = [`status: ${status};`];
  if (response.contentType !== null) fields.push(`body: ${responses}[${stringLiteral(response.status)}];`);
  if (headers.length > 0) {
    const entries = headers.map(
      (header) =>
        `${propertyKey(header.name)}${header.required ? '' : '?'}: ${headerValueType(header.schema, model)};`,
    );
    fields.push(`headers${headers.some((header) => header.required) ? '' : '?'}: { ${entries.join(' ')} };`);
  }
  return `{ ${fields.join(' ')} }`;
}

import { isObject, objectAt } from '../../ir/json.js';
import type { ApiModel } from '../../ir/model.js';

function fixesValue(property: unknown, value: string): boolean {
  if (!isObject(property)) return false;
  if (property.const === value) return true;
  return Array.isArray(property.enum) && property.enum.length === 1 && property.enum[0] === value;
}

/** Properties a payload schema fixes to the event's name, through `$ref` and `allOf`. */
function propertiesFixedTo(model: ApiModel, schema: unknown, eventName: string, depth: number): string[] {
  if (!isObject(schema) || depth > 8) return [];
  const own = Object.entries(objectAt(schema, 'properties') ?? {})
    .filter(([, property]) => fixesValue(property, eventName))
    .map(([name]) => name);
  const refName =
    typeof schema.$ref === 'string' ? schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1) : null;
  const target = model.schemas.find((named) => named.name === refName);
  const members = [...(Array.isArray(schema.allOf) ? schema.allOf : []), ...(target ? [target.schema] : [])];
  return [...own, ...members.flatMap((member) => propertiesFixedTo(model, member, eventName, depth + 1))];
}

/**
 * The body property every webhook payload fixes to its own event name (`type: { const: device.online }`), which
 * makes the payloads a discriminated union; null when the payloads have none in common.
 */
export function findDiscriminator(model: ApiModel): string | null {
  let common: string[] | null = null;
  for (const webhook of model.webhooks) {
    const fixed = propertiesFixedTo(model, webhook.payload, webhook.name, 0);
    common = common === null ? fixed : common.filter((name) => fixed.includes(name));
  }
  return [...new Set(common ?? [])].sort()[0] ?? null;
}

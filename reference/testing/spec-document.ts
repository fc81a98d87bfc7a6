import { fileURLToPath } from 'node:url';
import { readYamlFile } from '../../runtime/yaml-file.js';

/**
 * Facts of spec/openapi.yaml that the generated code does not carry (header patterns, the bounds of the shared
 * `limit` parameter), read from the spec itself so a test never restates them.
 */
interface OpenApiComponents {
  components: {
    headers: Record<string, { schema: { pattern?: string } }>;
    parameters: Record<string, { name: string; schema: { minimum?: number; maximum?: number } }>;
  };
}

const document = readYamlFile(
  fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url)),
) as OpenApiComponents;

/** The pattern of a response header component (`RateLimit`, `RateLimitPolicy`). */
export function headerPattern(component: string): RegExp {
  const pattern = document.components.headers[component]?.schema.pattern;
  if (pattern === undefined) throw new Error(`spec/openapi.yaml has no pattern for the header ${component}`);
  return new RegExp(pattern);
}

/** The bounds of a shared query parameter by its name (`limit`). */
export function parameterBounds(name: string): { minimum: number; maximum: number } {
  const parameter = Object.values(document.components.parameters).find((each) => each.name === name);
  const { minimum, maximum } = parameter?.schema ?? {};
  if (minimum === undefined || maximum === undefined)
    throw new Error(`spec/openapi.yaml has no bounds for ${name}`);
  return { minimum, maximum };
}

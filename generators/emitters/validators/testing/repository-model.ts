import { loadConfigFile, resolveConfig } from '../../../config.js';
import { buildModel } from '../../../ir/build-model.js';
import type { ApiModel } from '../../../ir/model.js';
import { loadSpecs } from '../../../load/load-specs.js';
import { repositoryRoot } from '../../../testing/golden.js';

/** The IR of the repository's own spec, built as `npm run generate` builds it. */
export async function repositoryModel(): Promise<ApiModel> {
  const config = resolveConfig(await loadConfigFile(null, repositoryRoot), repositoryRoot);
  const { input } = await loadSpecs(config);
  return buildModel(input, []);
}

/** A named schema of the model as an object, its `$ref`s followed; throws when the spec has no such schema. */
export function schemaNamed(model: ApiModel, name: string): Record<string, unknown> {
  const schema = model.schemas.find((named) => named.name === name)?.schema;
  if (schema === undefined || typeof schema === 'boolean') throw new Error(`no object schema ${name}`);
  return schema;
}

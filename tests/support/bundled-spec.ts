// The OpenAPI document as peer tools read it: one bundled JSON file (external $refs folded into components).
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleOpenApi } from '../../scripts/docs/load-documents.js';

export type JsonObject = Record<string, unknown>;

export interface BundledSpec {
  document: JsonObject;
  /** A scratch folder under `.tmp/` holding `openapi.json`; the caller removes it. */
  directory: string;
  file: string;
}

export async function writeBundledSpec(root: string, prefix: string): Promise<BundledSpec> {
  const document = (await bundleOpenApi(path.join(root, 'spec/openapi.yaml'))) as JsonObject;
  await mkdir(path.join(root, '.tmp'), { recursive: true });
  const directory = await mkdtemp(path.join(root, '.tmp', prefix));
  const file = path.join(directory, 'openapi.json');
  await writeFile(file, JSON.stringify(document, null, 2));
  return { document, directory, file };
}

export interface OperationEntry {
  id: string;
  method: string;
  /** The path template, e.g. `/streams/{streamId}`. */
  path: string;
  operation: JsonObject;
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Every operation of `paths` (not `webhooks`). */
export function operationsOf(document: JsonObject): OperationEntry[] {
  const paths = (document.paths ?? {}) as Record<string, JsonObject>;
  return Object.entries(paths).flatMap(([template, item]) =>
    methods
      .filter((method) => typeof item[method] === 'object')
      .map((method) => {
        const operation = item[method] as JsonObject;
        return { id: String(operation.operationId), method, path: template, operation };
      }),
  );
}

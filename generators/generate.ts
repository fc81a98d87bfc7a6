import type { ResolvedGeneratorConfig } from './config.js';
import './emitters/index.js';
import type { EmitContext, GeneratedFile } from './emitters/generated-file.js';
import { emitterFor } from './emitters/registry.js';
import { SymbolTable } from './emitters/symbols.js';
import { buildModel } from './ir/build-model.js';
import type { ApiModel } from './ir/model.js';
import { loadSpecs } from './load/load-specs.js';
import { GenerationFailed, hasErrors, type Problem } from './problems.js';

/** Emits every configured artifact from a model: a function of the model and the config alone. */
export async function emitArtifacts(
  model: ApiModel,
  config: ResolvedGeneratorConfig,
): Promise<{ files: GeneratedFile[]; problems: Problem[] }> {
  const emitters = config.artifacts.flatMap((name) => {
    const emitter = emitterFor(name);
    return emitter === undefined ? [] : [emitter];
  });
  const symbols = new SymbolTable(
    emitters.flatMap((emitter) => emitter.declare(model)),
    config.outDir,
    config.runtimeDir,
  );
  const context: EmitContext = { model, config, symbols, problems: [] };
  const rendered = await Promise.all(emitters.map((emitter) => emitter.emit(context)));
  const files = rendered.flat().sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, problems: context.problems };
}

/**
 * load → IR → emit. The IR is built even when lint found errors, so that one run lists the problems of both stages;
 * nothing is emitted while any error stands.
 */
export async function generateFiles(
  config: ResolvedGeneratorConfig,
): Promise<{ files: GeneratedFile[]; warnings: Problem[] }> {
  const { input, problems } = await loadSpecs(config);
  const modelProblems: Problem[] = [];
  const model = buildModel(input, modelProblems);
  const isNew = (problem: Problem) =>
    !problems.some((known) => known.file === problem.file && known.pointer === problem.pointer);
  problems.push(...modelProblems.filter(isNew));
  if (hasErrors(problems)) throw new GenerationFailed(problems);
  const emitted = await emitArtifacts(model, config);
  problems.push(...emitted.problems);
  if (hasErrors(problems)) throw new GenerationFailed(problems);
  return { files: emitted.files, warnings: problems };
}

import { emitCache } from './cache/emit-cache.js';
import type { ResolvedGeneratorConfig } from './config.js';
import type { EmitContext, GeneratedFile } from './emitters/generated-file.js';
import { buildModel } from './ir/build-model.js';
import type { ApiModel } from './ir/model.js';
import { type LoadOptions, loadSpecs } from './load/load-specs.js';
import { GenerationFailed, hasErrors, type Problem } from './problems.js';

/** Emits every configured artifact from a model: a function of the model and the config alone. */
export async function emitArtifacts(
  model: ApiModel,
  config: ResolvedGeneratorConfig,
): Promise<{ files: GeneratedFile[]; problems: Problem[] }> {
  // Imported here, not at the top: the emitters load ts-morph, TypeScript, openapi-typescript and Ajv, which a run
  // answered from the cache never needs.
  const [{ emitterFor }, { SymbolTable }] = await Promise.all([
    import('./emitters/registry.js'),
    import('./emitters/symbols.js'),
    import('./emitters/index.js'),
  ]);
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
  const emitted = rendered.flat();
  const completed = emitters.flatMap((emitter) => emitter.complete?.(context, emitted) ?? []);
  const files = [...emitted, ...completed].sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, problems: context.problems };
}

/**
 * load → IR → emit. With `cacheDir`, lint and bundle results and the emitted files are kept between runs, keyed by
 * the content of everything they were made from (ADR 0015). The IR is built even when lint found errors, so that one run lists the problems of both stages;
 * nothing is emitted while any error stands.
 */
export async function generateFiles(
  config: ResolvedGeneratorConfig,
  options: LoadOptions = {},
): Promise<{ files: GeneratedFile[]; warnings: Problem[] }> {
  const { input, problems } = await loadSpecs(config, options);
  const modelProblems: Problem[] = [];
  const model = buildModel(input, modelProblems);
  const isNew = (problem: Problem) =>
    !problems.some((known) => known.file === problem.file && known.pointer === problem.pointer);
  problems.push(...modelProblems.filter(isNew));
  if (hasErrors(problems)) throw new GenerationFailed(problems);
  const cache = options.cacheDir ? emitCache(options.cacheDir, model, config) : null;
  let emitted = cache?.read() ?? null;
  if (emitted === null) {
    emitted = await emitArtifacts(model, config);
    if (!hasErrors(emitted.problems)) cache?.write(emitted);
  }
  problems.push(...emitted.problems);
  if (hasErrors(problems)) throw new GenerationFailed(problems);
  return { files: emitted.files, warnings: problems };
}

import type { ArtifactName, ResolvedGeneratorConfig } from '../config.js';
import type { ApiModel } from '../ir/model.js';
import type { Problem } from '../problems.js';
import type { SymbolDeclaration, SymbolTable } from './symbols.js';

/** One output file; `path` is relative to the output folder, with forward slashes. */
export interface GeneratedFile {
  path: string;
  content: string;
}

export interface EmitContext {
  model: ApiModel;
  config: ResolvedGeneratorConfig;
  symbols: SymbolTable;
  /** Emitters report what they cannot render here instead of throwing. */
  problems: Problem[];
}

/**
 * An emitter is a pure function of the model: `declare` names what it will export (so others can import it without
 * knowing file paths), `emit` renders the files.
 */
export interface Emitter {
  name: ArtifactName;
  declare(model: ApiModel): SymbolDeclaration[];
  emit(context: EmitContext): GeneratedFile[] | Promise<GeneratedFile[]>;
  /** Files made from every artifact's output of the run, after all `emit`s (the client's copies of what it imports). */
  complete?(context: EmitContext, files: readonly GeneratedFile[]): GeneratedFile[];
}

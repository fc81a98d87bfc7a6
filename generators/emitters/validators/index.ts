import type { ApiModel } from '../../ir/model.js';
import type { EmitContext, Emitter, GeneratedFile } from '../generated-file.js';
import type { SymbolDeclaration } from '../symbols.js';
import { parameterOptions, validatorOptions } from './compile.js';
import { indexFile } from './index-file.js';
import { standaloneFiles } from './standalone-files.js';
import { compileEntries, planValidators } from './targets.js';

export const files = {
  index: 'validators/index.ts',
  values: { script: 'validators/standalone.js', declarations: 'validators/standalone.d.ts' },
  parameters: {
    script: 'validators/standalone-parameters.js',
    declarations: 'validators/standalone-parameters.d.ts',
  },
} as const;

function declare(model: ApiModel): SymbolDeclaration[] {
  const symbol = (kind: string, id: string, exportName: string): SymbolDeclaration => ({
    artifact: 'validators',
    kind,
    id,
    file: files.index,
    exportName,
  });
  const { guards, targets } = planValidators(model);
  return [
    ...targets.map((target) => symbol(target.symbolKind, target.symbolId, target.exportName)),
    ...guards.flatMap((guard) => [
      symbol('schema-validator', guard.schema.name, guard.validateName),
      symbol('schema-guard', guard.schema.name, guard.guardName),
      symbol('schema-assert', guard.schema.name, guard.assertName),
    ]),
  ];
}

/**
 * Ajv standalone code for every named schema and validation target, compiled here so that nothing is compiled at
 * run time: one module without coercion (bodies, responses, payloads, named schemas) and one that coerces strings
 * and fills in defaults (parameter sets). The index wraps each function in a typed validator.
 */
function emit(context: EmitContext): GeneratedFile[] {
  const plan = planValidators(context.model);
  if (plan.guards.length === 0 && plan.targets.length === 0) return [];
  const { values, parameters } = compileEntries(plan);
  return [
    ...standaloneFiles(context, files.values, values, validatorOptions),
    ...standaloneFiles(context, files.parameters, parameters, parameterOptions),
    indexFile(context, plan, {
      index: files.index,
      values: files.values.script,
      parameters: files.parameters.script,
    }),
  ];
}

export const validatorsEmitter: Emitter = { name: 'validators', declare, emit };

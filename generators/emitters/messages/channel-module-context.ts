import type { SymbolTable } from '../symbols.js';
import type { FileImports } from './imports.js';
import type { ChannelPlan } from './plan.js';

/** What every statement builder of one channel module reads: the plan, the file's imports and the symbol table. */
export interface ChannelModuleContext {
  plan: ChannelPlan;
  imports: FileImports;
  symbols: SymbolTable;
  /** Imports the channel's parameters type on first use. */
  parametersType: () => string;
}

import type { JsonSchema } from '../../ir/model.js';

/** Where the validated value's type comes from: a types-artifact symbol, optionally one member of it. */
export interface TypeReference {
  kind: string;
  id: string;
  member: string | null;
}

export interface TargetDraft {
  /** Symbol kind and id other emitters look the validator up by. */
  symbolKind: 'operation-input' | 'operation-response' | 'webhook-payload' | 'message-payload';
  symbolId: string;
  /** PascalCase name the export is made of (`CreateStreamBody` gives `validateCreateStreamBody`). */
  baseName: string;
  schema: JsonSchema;
  /** Parameter sets arrive as strings: compiled with coercion and defaults. */
  parameters: boolean;
  type: TypeReference;
  summary: string;
  origin: string;
}

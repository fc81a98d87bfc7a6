// The webhook sender's worker thread (ADR 0032): loads the TypeScript loader for itself, since a worker's entry is
// not covered by the parent's `--import tsx` (nor by vitest's transform), then runs sender-thread-main.ts.
import { register } from 'tsx/esm/api';

register();
await import('./sender-thread-main.ts');

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

// The global exists in Node; the project's lib (ES2023, no DOM) declares only its types.
const { compile } = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }
).WebAssembly;

let compiled: Promise<WebAssembly.Module> | null = null;

/**
 * PGlite's WebAssembly, compiled once per process and handed to every database it opens (ADR 0034). Left to itself,
 * each PGlite compiles its 9 MB module again, and V8's background threads then recompile its hot functions with
 * TurboFan while statements run: ≈ 1 s of CPU per database opened. A module kept here keeps that optimised code for
 * the next database of the process (a restart, the next test, the next round of a benchmark); a module posted to a
 * worker thread shares its compiled code rather than copying it.
 */
export function pgliteWasmModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const file = createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm');
    return compile(await readFile(file));
  })();
  return compiled;
}

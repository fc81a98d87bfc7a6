import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { catalogue } from '../harness/catalogue.js';
import type { CheckResult } from './results.js';

/** When a check file ran, on the CLI's clock (performance.now()), and how long importing it took. */
export interface FileSpan {
  file: string;
  startMs: number;
  endMs: number;
  importMs: number;
}

/** A vitest reporter that keeps every check's outcome with its requirement ids, for the requirement matrix. */
export class CheckCollector implements Reporter {
  readonly results: CheckResult[] = [];
  readonly suiteErrors: string[] = [];
  /** Each check file's wall time from its start to its end, worker start-up and imports included. */
  readonly fileSpans: FileSpan[] = [];
  readonly #started = new Map<string, number>();

  constructor(private readonly root: string) {}

  onTestModuleQueued(module: TestModule): void {
    this.#started.set(module.moduleId, performance.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const end = performance.now();
    const start = this.#started.get(module.moduleId) ?? end;
    const diagnostic = module.diagnostic();
    this.fileSpans.push({
      file: path.relative(this.root, module.moduleId),
      startMs: start,
      endMs: end,
      importMs: diagnostic.collectDuration,
    });
  }

  onTestRunEnd(testModules: readonly TestModule[], unhandledErrors: readonly unknown[]): void {
    const known = new Set(catalogue().map((requirement) => requirement.id));
    for (const module of testModules) {
      for (const error of module.errors())
        this.suiteErrors.push(`${path.relative(this.root, module.moduleId)}: ${error.message}`);
      for (const test of module.children.allTests()) {
        const result = test.result();
        const state = result.state === 'passed' || result.state === 'failed' ? result.state : 'skipped';
        const detail =
          result.state === 'failed'
            ? (result.errors?.map((error) => error.message).join('\n') ?? 'failed')
            : result.state === 'skipped'
              ? (result.note ?? 'skipped')
              : null;
        const file = path.relative(this.root, module.moduleId);
        const requirements = test.meta().requirements ?? [];
        this.results.push({
          title: test.name,
          file,
          requirements,
          state,
          detail,
          durationMs: test.diagnostic()?.duration ?? 0,
          ...(test.meta().essential === true ? { essential: true } : {}),
          ...((test.meta().evidence?.length ?? 0) > 0 ? { evidence: test.meta().evidence } : {}),
        });
        // No row of the matrix would show this failure (an unknown id, a bare it()): count it as a suite error.
        if (state === 'failed' && !requirements.some((id) => known.has(id)))
          this.suiteErrors.push(`${file}: ${test.name}: ${detail ?? 'failed'}`);
      }
    }
    for (const error of unhandledErrors) this.suiteErrors.push(String(error));
  }
}

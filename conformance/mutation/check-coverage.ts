import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * StrykerJS's instrumented code counts every mutant whose code runs in its `__stryker__` namespace on globalThis,
 * under the current test id while one is set, else as static. The counting is Stryker's own; this module only names
 * the test (the references' start, then each check file).
 */
interface StrykerNamespace {
  currentTestId?: string;
}

function namespace(): StrykerNamespace {
  const global = globalThis as { __stryker__?: StrykerNamespace };
  global.__stryker__ ??= {};
  return global.__stryker__;
}

/** Names the test that Stryker's instrumentation counts what runs from now on under. */
export function setCurrentTest(name: string): void {
  namespace().currentTestId = name;
}

/**
 * A vitest reporter that names the check file about to run as Stryker's current test, so the reference's instrumented
 * code counts what that file reached. Only meaningful with one check file running at a time (`oneLaneAtATime`); the
 * reference must run in this process (the embedded default). The name is set when the file is queued, before its
 * worker imports it (the start event arrives from the worker later, after its first requests), and kept until the
 * next file is queued, so work a file leaves behind (a delivery, a timer) is counted as that file's.
 */
export class CheckFileAttribution implements Reporter {
  onTestModuleQueued(module: TestModule): void {
    setCurrentTest(path.basename(module.moduleId));
  }
}

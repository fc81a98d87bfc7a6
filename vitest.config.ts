import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit tests of runtime/ share one module graph per worker (isolate: false): each file otherwise re-imports and
// re-transforms the same modules, which cost most of their time (issue 16, ADR 0022: 17 files 359 s → 52 s on the
// loaded machine, the same 241 tests passing). The generators' tests load TypeScript, Redocly and the AsyncAPI parser
// in nearly every file; sharing them cut that folder from 321–360 s to 183–195 s (import 70–74 s → 23–26 s, same 180
// tests passing; load average 13–20, run alternately). The other folders keep a fresh module graph per file until a
// full run shows that sharing is safe for them too (servers, stores and module-level state).
const sharedFolders = ['runtime/**/*.test.ts', 'generators/**/*.test.ts'];
// Files in tests/ that load the same generators, Redocly and TypeScript and hold no server or module state of their
// own join them (ADR 0031, wave 10): these 7 files took 113 s of CPU with a fresh module graph each, 90 s shared
// (load average 7-8, same 54 tests passing).
const generatorFilesInTests = [
  'tests/generate-cache.test.ts',
  'tests/generated-drift.test.ts',
  'tests/generators-fixtures.test.ts',
  'tests/lint-spec.test.ts',
  'tests/load-k6-scripts.test.ts',
  'tests/generate-cli.test.ts',
  'tests/peer-tools-types.test.ts',
];
const shared = [...sharedFolders, ...generatorFilesInTests];

// Two files at a time at least (ADR 0031). Vitest's default is one worker fewer than the cores, so one file at a time on
// a 2-core machine, which then sits idle while a test waits on a timer, a socket or a child process (most of them do):
// reference/delivery took 74 s with one worker and 47 s with two, the same 42 tests passing (load average 5-6).
const maxWorkers = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    maxWorkers,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One PGlite initdb per run, copied into each fresh data directory (ADR 0031).
    globalSetup: ['tests/support/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'shared-modules', include: shared, isolate: false, pool: 'threads' } },
      {
        extends: true,
        test: {
          name: 'isolated',
          // A fresh module graph per file on a worker thread, not a child process: no Node start-up per file (about
          // 12 % of the CPU of reference/http's files). No test here changes the working directory or signals itself.
          pool: 'threads',
          include: ['tests/**/*.test.ts', '{reference,conformance,load}/**/*.test.ts'],
          exclude: generatorFilesInTests,
        },
      },
    ],
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Three files at a time at least (ADR 0031). Vitest's default is one worker fewer than the cores, so one file at a time
// on a 2-core machine, which then sits idle while a test waits on a timer, a socket or a child process (most of them
// do): reference/delivery took 74 s with one worker and 47 s with two. A third overlaps more of those waits: the whole
// suite 275.5 s with two and 251.7 s with three, back to back, the same 6 min 7 s of user CPU (wave 16).
const maxWorkers = Math.max(3, availableParallelism() - 1);

export default defineConfig({
  test: {
    maxWorkers,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One PGlite initdb per run, copied into each fresh data directory (ADR 0031).
    globalSetup: ['tests/support/global-setup.ts'],
    include: ['{runtime,generators,reference,conformance,load,tests}/**/*.test.ts'],
    // Every file shares its worker's module graph (ADR 0031, wave 11): a fresh graph per file re-imported Fastify, the
    // validators, PGlite's module and the generators for each file, most of the suite's CPU after the tests themselves.
    // Shared, reference/'s 62 files took 170 s of CPU instead of 266 s, and the files of tests/, conformance/ and load/
    // 164 s instead of 203 s, the same tests passing (load average 10-14, run back to back). No test file stubs
    // globals, mocks modules or changes the working directory; module-level state is caches (ADR 0031 lists them).
    isolate: false,
    // Worker threads, not child processes: no Node start-up per worker. No test signals its own process.
    pool: 'threads',
  },
});

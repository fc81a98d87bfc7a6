// Linux `perf record` of this process while one measured run goes on (rest-cpu.ts with PERF=<dir>): every thread's
// CPU, the kernel's and V8's C++ and GC included, which a V8 CPU profile does not show. Start node with
// --perf-basic-prof so JIT-compiled functions have names; `perf-summary.ts` reads the files.
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';

/** Samples per second of CPU (software clock: this VM has no hardware counters). */
export const perfFrequency = 4000;

/** Starts recording this process into `file`; `stop()` ends it and waits until perf has written the file. */
export async function recordPerf(file: string): Promise<{ stop(): Promise<void> }> {
  const perf = spawn(
    'perf',
    [
      'record',
      '--no-inherit',
      '-e',
      'cpu-clock',
      '-F',
      String(perfFrequency),
      '-o',
      file,
      '-p',
      String(process.pid),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  perf.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => perf.once('exit', resolve));
  // perf writes its file's header once it is attached: wait for it rather than guess a delay.
  for (let waited = 0; ; waited += 20) {
    if ((await stat(file).catch(() => null))?.size) break;
    if (perf.exitCode !== null || waited > 5000) throw new Error(`perf record did not start: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    async stop() {
      perf.kill('SIGINT');
      const code = await exited;
      if (code !== 0 && code !== null) throw new Error(`perf record failed (${code}): ${errors}`);
    },
  };
}

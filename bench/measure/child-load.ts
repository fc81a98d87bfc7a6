// The parent's side of `rest-cpu-driver.ts`: autocannon in a child process of its own, so the load generator's CPU is
// not counted in this process's (rest-cpu.ts, rest-cpu-ab.ts).
import { fork } from 'node:child_process';
import path from 'node:path';

/**
 * Sends `amount` requests from a child process; resolves with the count of responses of the expected status and the
 * rate autocannon measured (requests a second, over its own run: the child's start-up is not in it).
 */
export function drive(
  origin: string,
  requests: unknown[],
  amount: number,
): Promise<{ ok: number; other: number; perSecond: number; clientMicroseconds: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, 'rest-cpu-driver.ts'), [], {
      execArgv: ['--import', 'tsx'],
    });
    child.once('message', (message) => {
      resolve(message as { ok: number; other: number; perSecond: number; clientMicroseconds: number });
      child.kill();
    });
    child.once('error', reject);
    child.send({ origin, requests, amount });
  });
}

// The parent's side of `rest-cpu-driver.ts`: autocannon in a child process of its own, so the load generator's CPU is
// not counted in this process's (rest-cpu.ts, rest-cpu-ab.ts).
import { fork } from 'node:child_process';
import path from 'node:path';

/** What the child reports: responses of the expected status and others, its rate, and its own CPU per response. */
export interface DriveCounts {
  ok: number;
  other: number;
  perSecond: number;
  clientMicroseconds: number;
}

/**
 * Sends `amount` requests from a child process; resolves with the count of responses of the expected status and the
 * rate autocannon measured (requests a second, over its own run: the child's start-up is not in it).
 */
export function drive(origin: string, requests: unknown[], amount: number): Promise<DriveCounts> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, 'rest-cpu-driver.ts'), [], {
      execArgv: ['--import', 'tsx'],
    });
    child.once('message', (message) => {
      resolve(message as DriveCounts);
      child.kill();
    });
    child.once('error', reject);
    child.send({ origin, requests, amount });
  });
}

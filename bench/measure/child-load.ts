// Fixed-count runs for the CPU instruments (rest-cpu.ts, rest-cpu-ab.ts, rest-allocations.ts): autocannon in the
// bench's load process (`bench/rest/load-process.ts`), so the load generator's CPU is not counted in this process's.
import type autocannon from 'autocannon';
import { connections } from '../rest/load.js';
import { LoadProcess } from '../rest/load-process.js';

/** What a run gave: responses of the expected status and others, its rate, and the child's CPU per response. */
export interface DriveCounts {
  ok: number;
  other: number;
  perSecond: number;
  clientMicroseconds: number;
}

/**
 * Sends `amount` requests from a load process of its own (started for this run and ended after it, so nothing is
 * left running when the instrument ends); resolves with the count of responses of the expected status and the rate
 * autocannon measured over its own run (the child's start-up is not in it).
 */
export async function drive(origin: string, requests: unknown[], amount: number): Promise<DriveCounts> {
  const load = new LoadProcess();
  try {
    const { result, clientMicroseconds } = await load.runAmount(
      origin,
      requests as autocannon.Request[],
      amount,
      connections,
    );
    return {
      ok: result['2xx'] ?? 0,
      other: result.non2xx + result.errors,
      perSecond: result.requests.total / result.duration,
      clientMicroseconds,
    };
  } finally {
    await load.close();
  }
}

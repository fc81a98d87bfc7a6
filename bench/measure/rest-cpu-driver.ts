// The load generator of rest-cpu.ts, in a process of its own: sends a fixed number of requests, reports the counts.
import autocannon from 'autocannon';
import type { DriveCounts } from './child-load.js';

process.once('message', (message) => {
  const { origin, requests, amount } = message as {
    origin: string;
    requests: autocannon.Request[];
    amount: number;
  };
  const before = process.cpuUsage();
  autocannon({ url: origin, connections: 10, amount, requests }, (error, result) => {
    const used = process.cpuUsage(before);
    if (error) throw error;
    const ok = result['2xx'] ?? 0;
    process.send?.({
      ok,
      other: result.non2xx + result.errors,
      perSecond: result.requests.total / result.duration,
      clientMicroseconds: (used.user + used.system) / result.requests.total,
    } satisfies DriveCounts);
  });
});

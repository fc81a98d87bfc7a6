// The child side of load-process.ts: runs autocannon when asked and sends its result back, with its own CPU per
// response, until disconnected.
import autocannon from 'autocannon';
import type { LoadOrder } from './load-process.js';

process.on('message', (message) => {
  const { id, origin, requests, connections, ...length } = message as LoadOrder;
  const before = process.cpuUsage();
  const options = 'amount' in length ? { amount: length.amount } : { duration: length.seconds };
  autocannon({ url: origin, connections, requests, ...options }, (error, result) => {
    const used = process.cpuUsage(before);
    if (error) process.send?.({ id, error: String(error) });
    else
      process.send?.({
        id,
        result,
        clientMicroseconds: (used.user + used.system) / Math.max(1, result.requests.total),
      });
  });
});
process.on('disconnect', () => process.exit(0));

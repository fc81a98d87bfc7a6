// The child side of load-process.ts: runs autocannon when asked and sends its result back, until disconnected.
import autocannon from 'autocannon';
import type { LoadOrder } from './load-process.js';

process.on('message', (message) => {
  const { id, origin, requests, seconds, connections } = message as LoadOrder;
  autocannon({ url: origin, connections, duration: seconds, requests }, (error, result) => {
    if (error) process.send?.({ id, error: String(error) });
    else process.send?.({ id, result });
  });
});
process.on('disconnect', () => process.exit(0));

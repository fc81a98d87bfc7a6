// Child process of bench/ingest.ts: one mqtt.js subscriber of a broker's `devices/#`, counting what it relays.
import mqtt from 'mqtt';
import type { FromChild, ToChild } from './child-protocol.js';
import { wallNow } from './driver.js';
import { SampleCounter } from './sample-counter.js';

const url = process.argv[2] ?? 'mqtt://127.0.0.1:1883';
const counter = new SampleCounter();
const client = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
(client.stream as { setNoDelay?: (noDelay: boolean) => void }).setNoDelay?.(true);
client.on('message', (topic, payload) => {
  const sample = JSON.parse(payload.toString()) as { values: { n: number; sentAt: number } };
  counter.add(topic, sample.values.n, sample.values.sentAt, wallNow());
});
await client.subscribeAsync('devices/#', { qos: 0 });
let maxRssBytes = 0;
const send = (message: FromChild) => process.send?.(message);
process.on('message', async (message: ToChild) => {
  if (message.kind === 'prepare') {
    counter.reset();
    const devices = Array.from({ length: message.streams }, (_, index) => {
      const streamId = `stm_bench${process.pid}x${Date.now()}x${index}`;
      return { streamId, username: streamId, password: 'anonymous' };
    });
    send({ kind: 'ready', url, devices });
  } else if (message.kind === 'window') counter.setWindow(message.start, message.end);
  else if (message.kind === 'report') {
    maxRssBytes = Math.max(maxRssBytes, process.memoryUsage().rss);
    send({ kind: 'report', summary: counter.summary(), cpuMicroseconds: null, maxRssBytes });
  } else {
    await client.endAsync();
    process.exit(0);
  }
});

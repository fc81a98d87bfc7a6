import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { deviceTelemetryAddress } from '../../../generated/messages/device-telemetry.js';

// The device runs on a thread of its own so that it keeps sending while the service's event loop is blocked. It
// sends what its schedule owes every 10 ms: never ahead of its rate, and back on schedule after its own delays.
const deviceSource = `
const { parentPort, workerData } = require('node:worker_threads');
const mqtt = require(workerData.mqttPath);
const client = mqtt.connect(workerData.url, { username: workerData.streamId, password: workerData.key, reconnectPeriod: 0 });
client.on('connect', () => {
  client.stream.setNoDelay(true);
  const startedAt = performance.now();
  let sent = 0;
  const timer = setInterval(() => {
    const owed = Math.min(workerData.count, Math.floor(((performance.now() - startedAt) * workerData.rate) / 1000));
    for (; sent < owed; ) {
      sent += 1;
      client.publish(workerData.topic, JSON.stringify({ ts: sent, values: { seq: sent } }), { qos: 0 });
    }
    if (sent > 0) parentPort.postMessage({ type: 'sending' });
    if (sent === workerData.count) {
      clearInterval(timer);
      client.end(false, {}, () => parentPort.postMessage({ type: 'done', sent }));
    }
  }, 10);
});
client.on('error', (error) => parentPort.postMessage({ type: 'error', message: error.message }));
`;

export interface PacedDevice {
  /** Resolves once the first messages went out. */
  sending: Promise<void>;
  /** Resolves with how many were sent once all were sent and the connection closed, or rejects. */
  done: Promise<number>;
}

/** An mqtt.js device on a worker thread sending `count` JSON samples at `rate` per second, QoS 0. */
export function pacedDeviceThread(
  url: string,
  stream: { id: string; key: string },
  rate: number,
  count: number,
): PacedDevice {
  const worker = new Worker(deviceSource, {
    eval: true,
    workerData: {
      mqttPath: createRequire(import.meta.url).resolve('mqtt'),
      url,
      streamId: stream.id,
      key: stream.key,
      topic: deviceTelemetryAddress({ streamId: stream.id }),
      rate,
      count,
    },
  });
  type Message = { type: 'sending' } | { type: 'done'; sent: number } | { type: 'error'; message: string };
  const sending = new Promise<void>((resolve) =>
    worker.on('message', (message: Message) => message.type === 'sending' && resolve()),
  );
  const done = new Promise<number>((resolve, reject) => {
    worker.on('message', (message: Message) => {
      if (message.type === 'done') resolve(message.sent);
      else if (message.type === 'error') reject(new Error(message.message));
    });
    worker.once('error', reject);
  }).finally(() => worker.terminate());
  return { sending, done };
}

/** Keeps this thread busy: its event loop reads nothing meanwhile, as in a long garbage collection. */
export function blockEventLoop(milliseconds: number): void {
  const until = Date.now() + milliseconds;
  while (Date.now() < until) {
    // busy on purpose
  }
}

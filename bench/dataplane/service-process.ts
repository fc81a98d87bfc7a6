// Child process of bench/ingest.ts: the reference ingest server over a fresh embedded store, counting the samples
// that reach a listener of the fan-out bus. Streams are created per run; the process lives for all runs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '../../reference/clock.js';
import { InProcessFanoutBus } from '../../reference/fanout/in-process-fanout-bus.js';
import { EventLoopLag } from '../../reference/ingest/event-loop-lag.js';
import { startIngestServer } from '../../reference/ingest/ingest-server.js';
import { defaultOverloadSettings, OverloadGuard } from '../../reference/ingest/overload-guard.js';
import { createAccount } from '../../reference/seed.js';
import { createStream } from '../../reference/services/streams.js';
import { openStore } from '../../reference/storage/open-store.js';
import { type FromChild, measureOverWindow, ownCpuMicroseconds, type ToChild } from './child-protocol.js';
import { wallNow } from './driver.js';
import { SampleCounter } from './sample-counter.js';

const directory = await mkdtemp(path.join(tmpdir(), 'bench-ingest-'));
const store = await openStore({ kind: 'embedded', dataDir: path.join(directory, 'database') });
const clock = systemClock();
const bus = new InProcessFanoutBus();
const counter = new SampleCounter();
bus.subscribeAll((message) => {
  if (message.type !== 'telemetry') return;
  const { n, sentAt } = message.sample.values;
  counter.add(message.streamId, n ?? -1, sentAt ?? 0, wallNow());
});
let failures = 0;
// The service's own guard and settings, without its log lines in the benchmark's output.
const lag = new EventLoopLag();
const traced = process.env.INGEST_BENCH_TRACE === '1';
const overload = new OverloadGuard(
  {
    read() {
      const reading = lag.read();
      if (traced) console.error(`trace ${Math.round(wallNow() % 100000)} ${JSON.stringify(reading)}`);
      return reading;
    },
    recordIngestTime: (milliseconds) => lag.recordIngestTime(milliseconds),
    close: () => lag.close(),
  },
  defaultOverloadSettings,
);
const server = await startIngestServer({
  host: '127.0.0.1',
  port: 0,
  store,
  clock,
  bus,
  overload,
  onFailure: () => {
    failures += 1;
  },
});
const account = await createAccount(store, clock, 'paid', 'local-1');
const urls = { baseUrl: '', authUrl: '', mqttBroker: server.url, wsUrl: 'ws://127.0.0.1' };
const context = { store, clock, urls, accountId: account.accountId, signingKey: new Uint8Array(32) };
let maxRssBytes = 0;
setInterval(() => {
  maxRssBytes = Math.max(maxRssBytes, process.memoryUsage().rss);
}, 250).unref();
let cpu: { value: number | null } = { value: null };
const shedding = {
  shedMessages: { value: null as number | null },
  refusedConnections: { value: null as number | null },
  episodes: { value: null as number | null },
};

const send = (message: FromChild) => process.send?.(message);
process.on('message', async (message: ToChild) => {
  if (message.kind === 'prepare') {
    const devices = [];
    for (let index = 0; index < message.streams; index += 1) {
      const stream = await createStream(context, { title: `Bench ${index}`, quality: 'high' }, 'local-1');
      devices.push({ streamId: stream.id, username: stream.id, password: stream.streamKey });
    }
    counter.reset();
    maxRssBytes = process.memoryUsage().rss;
    send({ kind: 'ready', url: server.url, devices });
  } else if (message.kind === 'window') {
    counter.setWindow(message.start, message.end);
    cpu = measureOverWindow(message.start, message.end, wallNow(), ownCpuMicroseconds);
    if (traced)
      console.error(`trace window ${Math.round(message.start % 100000)} ${Math.round(message.end % 100000)}`);
    for (const name of ['shedMessages', 'refusedConnections', 'episodes'] as const)
      shedding[name] = measureOverWindow(message.start, message.end, wallNow(), () => overload.counts[name]);
  } else if (message.kind === 'report') {
    if (failures > 0) console.error(`service: ${failures} store failures`);
    send({
      kind: 'report',
      summary: counter.summary(),
      cpuMicroseconds: cpu.value,
      maxRssBytes,
      shedding: {
        shedMessages: shedding.shedMessages.value ?? 0,
        refusedConnections: shedding.refusedConnections.value ?? 0,
        episodes: shedding.episodes.value ?? 0,
      },
    });
  } else {
    await server.close();
    await store.close();
    await rm(directory, { recursive: true, force: true });
    process.exit(0);
  }
});

// npx tsx bench/fanout.ts — messages per second the live feed delivers to K subscribers of one stream, against a
// bare `ws` broadcast of the same frames, in alternating rounds in one process; and the latency each adds at 1 kHz.
import { createServer, type Server } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { liveFeedAddress } from '../generated/messages/live-feed.js';
import { startLiveFeedFixture } from '../reference/fanout/testing/live-feed-fixture.js';
import { channelUrl } from '../runtime/ws-subscriber.js';

const subscriberCounts =
  process.env.FANOUT_BENCH_K === undefined ? [1, 10, 100] : [Number(process.env.FANOUT_BENCH_K)];
const messagesPerRound = 10_000;
/** Messages published per event-loop turn: a device at 1 kHz with its neighbours, as ingest hands them over. */
const burst = 50;
const rounds = process.env.FANOUT_BENCH_K === undefined ? 5 : 1;
const latencyMessages = 1_000;
const targetRatio = 0.8;

interface Receiver {
  received: number;
  onMessage?: (messages: Array<{ seq: number }>) => void;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

async function connect(url: string, count: number): Promise<Receiver[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const receiver: Receiver = { received: 0 };
      const socket = new WebSocket(url, { perMessageDeflate: false });
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data)) as Array<{ seq: number; type: string }>;
        const telemetry = frame.filter((message) => message.type === 'telemetry');
        receiver.received += telemetry.length;
        receiver.onMessage?.(telemetry);
      });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      return receiver;
    }),
  );
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** A bare broadcast: the same JSON array frames sent to every client, nothing else. */
async function bareBroadcast() {
  const server: Server = createServer();
  const sockets = new WebSocketServer({ server, perMessageDeflate: false });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `ws://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/`;
  let seq = 0;
  return {
    url,
    publish(streamId: string, count: number) {
      const messages: string[] = [];
      for (let index = 0; index < count; index++) {
        seq += 1;
        messages.push(
          JSON.stringify({
            type: 'telemetry',
            streamId,
            receivedAt: Date.now(),
            sample: { ts: seq, values: { v: seq } },
            seq,
          }),
        );
      }
      const frame = `[${messages.join(',')}]`;
      for (const client of sockets.clients) client.send(frame);
      return seq;
    },
    async close() {
      for (const client of sockets.clients) client.terminate();
      await new Promise((resolve) => sockets.close(resolve));
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type Publish = (count: number) => void;

async function throughputRound(publish: Publish, receivers: Receiver[]): Promise<number> {
  const start = receivers.map((receiver) => receiver.received);
  const started = performance.now();
  for (let sent = 0; sent < messagesPerRound; sent += burst) {
    publish(burst);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await until(() =>
    receivers.every((receiver, index) => receiver.received - (start[index] ?? 0) >= messagesPerRound),
  );
  return (messagesPerRound * receivers.length) / ((performance.now() - started) / 1000);
}

/** One message per millisecond; the delay from publish to arrival at every subscriber, in milliseconds. */
async function latencies(publish: () => number, receivers: Receiver[]): Promise<number[]> {
  const sentAt = new Map<number, number>();
  const delays: number[] = [];
  for (const receiver of receivers)
    receiver.onMessage = (messages) => {
      for (const message of messages) {
        const at = sentAt.get(message.seq);
        if (at !== undefined) delays.push(performance.now() - at);
      }
    };
  for (let index = 0; index < latencyMessages; index++) {
    sentAt.set(publish(), performance.now());
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await until(() => delays.length >= latencyMessages * receivers.length);
  for (const receiver of receivers) delete receiver.onMessage;
  return delays;
}

export async function run(): Promise<string> {
  const fixture = await startLiveFeedFixture();
  const bare = await bareBroadcast();
  const lines = [
    `Fan-out: telemetry messages/s delivered to K subscribers of one stream (bursts of ${burst}, ${messagesPerRound} per round, median of ${rounds} rounds), live feed vs bare ws broadcast of the same frames`,
  ];
  try {
    for (const count of subscriberCounts) {
      const streamId = await fixture.newStream();
      const url = channelUrl(fixture.wsUrl, liveFeedAddress({ streamId }), {
        token: await fixture.token(streamId),
      });
      const service = await connect(url, count);
      const plain = await connect(bare.url, count);
      const servicePublish: Publish = (n) => fixture.publishTelemetry(streamId, n);
      const barePublish: Publish = (n) => void bare.publish(streamId, n);
      const serviceRates: number[] = [];
      const bareRates: number[] = [];
      await throughputRound(servicePublish, service);
      await throughputRound(barePublish, plain);
      for (let round = 0; round < rounds; round++) {
        serviceRates.push(await throughputRound(servicePublish, service));
        bareRates.push(await throughputRound(barePublish, plain));
      }
      const ratio = median(serviceRates) / median(bareRates);
      const serviceDelays = await latencies(
        () =>
          fixture.bus.publish({
            type: 'telemetry',
            streamId,
            receivedAt: Date.now(),
            sample: { ts: 0, values: { v: 0 } },
          }).seq,
        service,
      );
      const bareDelays = await latencies(() => bare.publish(streamId, 1), plain);
      lines.push(
        `  K=${String(count).padEnd(3)} live feed ${Math.round(median(serviceRates)).toLocaleString('en')}/s, bare ws ${Math.round(median(bareRates)).toLocaleString('en')}/s, ratio ${ratio.toFixed(2)} (goal ≥ ${targetRatio}); ` +
          `1 kHz latency p50/p99 live feed ${percentile(serviceDelays, 0.5).toFixed(2)}/${percentile(serviceDelays, 0.99).toFixed(2)} ms, bare ${percentile(bareDelays, 0.5).toFixed(2)}/${percentile(bareDelays, 0.99).toFixed(2)} ms, added p99 ${(percentile(serviceDelays, 0.99) - percentile(bareDelays, 0.99)).toFixed(2)} ms`,
      );
    }
  } finally {
    await bare.close();
    await fixture.close();
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());

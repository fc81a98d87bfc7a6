import { workerData } from 'node:worker_threads';
import mqtt from 'mqtt';
import { deviceTelemetryDecodersByFormat, subscribeLiveFeed } from '../../../generated/messages/index.js';
import type { LiveFrame, TelemetrySample } from '../../../generated/types/schemas.js';
import { readProbe } from '../probe.js';
import { SequenceTracker } from '../sequence-tracker.js';
import type { Report, SubscriberSetup, Subscription } from './protocol.js';
import { type Driver, runDriver, type SecondStats } from './worker-runtime.js';

interface Receiver {
  streamId: string;
  tracker: SequenceTracker;
  close(): Promise<void>;
}

class SubscriberDriver implements Driver {
  readonly #receivers: Receiver[] = [];
  #now: () => number = () => 0;
  #stats: (() => SecondStats) | null = null;
  #resolveFinished: (report: Report) => void = () => {};
  readonly #finished = new Promise<Report>((resolve) => {
    this.#resolveFinished = resolve;
  });

  constructor(private readonly setup: SubscriberSetup) {}

  async prepare(): Promise<void> {
    for (const subscription of this.setup.subscriptions) {
      const tracker = new SequenceTracker();
      const onSample = (sample: TelemetrySample) => this.#receive(tracker, sample);
      const close =
        subscription.kind === 'ws'
          ? await this.#openWs(subscription, onSample)
          : await this.#openMqtt(subscription, onSample);
      this.#receivers.push({ streamId: subscription.streamId, tracker, close });
    }
  }

  async #openWs(
    subscription: Extract<Subscription, { kind: 'ws' }>,
    onSample: (sample: TelemetrySample) => void,
  ): Promise<() => Promise<void>> {
    const live = await subscribeLiveFeed({
      url: subscription.baseUrl,
      parameters: { streamId: subscription.streamId },
      query: { token: subscription.token },
      onMessage: (frame: LiveFrame) => {
        for (const message of frame) if (message.type === 'telemetry') onSample(message.sample);
      },
    });
    return () => live.close();
  }

  async #openMqtt(
    subscription: Extract<Subscription, { kind: 'mqtt' }>,
    onSample: (sample: TelemetrySample) => void,
  ): Promise<() => Promise<void>> {
    const decode = deviceTelemetryDecodersByFormat[this.setup.format];
    const client = await mqtt.connectAsync(subscription.brokerUrl, { reconnectPeriod: 0 });
    // Nagle would hold small packets back for tens of milliseconds (measured in ../shared/TOOLCHAIN.md).
    (client.stream as { setNoDelay?: (noDelay: boolean) => void }).setNoDelay?.(true);
    client.on('message', (_topic, payload) => onSample(decode(payload) as TelemetrySample));
    await client.subscribeAsync(subscription.topic, { qos: 0 });
    return async () => {
      await client.endAsync();
    };
  }

  #receive(tracker: SequenceTracker, sample: TelemetrySample): void {
    const probe = readProbe(sample);
    const stats = this.#stats?.();
    if (probe === null || stats === undefined) return;
    tracker.record(probe.sequence);
    const latency = this.#now() - probe.sentMs;
    stats.received += 1;
    if (latency < 0) stats.clockSkewed += 1;
    stats.latency.record(Math.max(0, latency));
  }

  start(_startAt: number, now: () => number, stats: () => SecondStats): void {
    this.#now = now;
    this.#stats = stats;
  }

  gaps(): number {
    return this.#receivers.reduce((sum, receiver) => sum + receiver.tracker.counts().gaps, 0);
  }

  stop(): void {
    void Promise.all(this.#receivers.map((receiver) => receiver.close().catch(() => {}))).then(() =>
      this.#resolveFinished({
        type: 'subscriber-final',
        subscriptions: this.#receivers.map((receiver) => ({
          streamId: receiver.streamId,
          ...receiver.tracker.counts(),
        })),
      }),
    );
  }

  finished(): Promise<Report> {
    return this.#finished;
  }
}

runDriver(new SubscriberDriver(workerData.setup as SubscriberSetup));

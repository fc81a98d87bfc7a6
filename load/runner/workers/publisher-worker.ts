import { workerData } from 'node:worker_threads';
import {
  createDeviceTelemetryPublisher,
  type DeviceTelemetryPayloads,
  deviceTelemetryMessagesByFormat,
} from '../../../generated/messages/index.js';
import type { MqttPublisher } from '../../../runtime/mqtt-publisher.js';
import { LoadProfile } from '../load-profile.js';
import { Pacer } from '../pacer.js';
import { probeSample } from '../probe.js';
import { SendBudget } from '../send-budget.js';
import type { PublisherSetup, Report } from './protocol.js';
import { type Driver, runDriver, type SecondStats } from './worker-runtime.js';

// At most this many milliseconds of one stream's schedule go out in one turn, so a catch-up cannot block the loop.
const maxBatchMs = 50;

/** One device: its publisher, its warm-up and measured schedules, and its catch-up budget. */
interface Stream {
  streamId: string;
  publisher: MqttPublisher<DeviceTelemetryPayloads>;
  warmup: Pacer;
  measured: Pacer;
  budget: SendBudget;
  sequence: number;
}

class PublisherDriver implements Driver {
  readonly #streams: Stream[] = [];
  readonly #sentByStream: Record<string, number> = {};
  #errors = 0;
  #pending = 0;
  #resolveFinished: (report: Report) => void = () => {};
  readonly #finished = new Promise<Report>((resolve) => {
    this.#resolveFinished = resolve;
  });

  constructor(private readonly setup: PublisherSetup) {}

  async prepare(): Promise<void> {
    const { ratePerStream: rate, warmupMs, lateAfterMs } = this.setup;
    const profile = new LoadProfile(this.setup.profile.stages, this.setup.profile.holdSeconds);
    const total = Math.floor(rate * profile.area(profile.totalSeconds) + 1e-9);
    const warmupTotal = Math.floor((rate * warmupMs) / 1000 + 1e-9);
    for (const device of this.setup.devices) {
      this.#sentByStream[device.streamId] = 0;
      const publisher = await createDeviceTelemetryPublisher({
        url: device.brokerUrl,
        parameters: { streamId: device.streamId },
        clientId: `load-${device.streamId}`,
        ...(device.username === undefined ? {} : { username: device.username }),
        ...(device.password === undefined ? {} : { password: device.password }),
        onError: () => {
          this.#errors += 1;
        },
      });
      this.#streams.push({
        streamId: device.streamId,
        publisher,
        warmup: new Pacer(
          (elapsedMs) => (rate * Math.min(elapsedMs, warmupMs)) / 1000,
          warmupTotal,
          lateAfterMs,
        ),
        measured: new Pacer((elapsedMs) => rate * profile.area(elapsedMs / 1000), total, lateAfterMs),
        budget: new SendBudget(rate, 0),
        sequence: 0,
      });
    }
  }

  /** Warm-up first (samples with seq 0, which subscribers ignore), then the measured schedule from `startAt`. */
  start(startAt: number, now: () => number, stats: () => SecondStats): void {
    const messageId = deviceTelemetryMessagesByFormat[this.setup.format];
    const maxBatch = Math.max(1, Math.ceil((this.setup.ratePerStream * maxBatchMs) / 1000));
    const warmupAt = startAt - this.setup.warmupMs;
    const turn = () => {
      const at = now();
      let remaining = 0;
      for (const stream of this.#streams) {
        const allowed = Math.min(maxBatch, stream.budget.available(at));
        const warming = stream.warmup.remaining() > 0;
        const count = warming
          ? stream.warmup.take(at - warmupAt, allowed)
          : stream.measured.take(at - startAt, allowed);
        stream.budget.spend(count);
        for (let sent = 0; sent < count; sent += 1) {
          if (!warming) stream.sequence += 1;
          this.#publish(stream, messageId, warming ? 0 : stream.sequence, now(), stats);
        }
        remaining += stream.warmup.remaining() + stream.measured.remaining();
      }
      if (remaining > 0) setTimeout(turn, 1);
      else void this.#finish();
    };
    setTimeout(turn, Math.max(0, warmupAt - now()));
  }

  #publish(
    stream: Stream,
    messageId: (typeof deviceTelemetryMessagesByFormat)[keyof typeof deviceTelemetryMessagesByFormat],
    sequence: number,
    sentMs: number,
    stats: () => SecondStats,
  ): void {
    this.#pending += 1;
    stream.publisher.publish(messageId, probeSample(sequence, sentMs), { qos: this.setup.qos }).then(
      () => {
        this.#pending -= 1;
        if (sequence === 0) return;
        this.#sentByStream[stream.streamId] = (this.#sentByStream[stream.streamId] ?? 0) + 1;
        stats().sent += 1;
      },
      () => {
        this.#pending -= 1;
        this.#errors += 1;
      },
    );
  }

  async #finish(): Promise<void> {
    while (this.#pending > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all(this.#streams.map((stream) => stream.publisher.close().catch(() => {})));
    const pacing = { scheduled: 0, sent: 0, late: 0, maxLagMs: 0 };
    for (const stream of this.#streams) {
      const report = stream.measured.report();
      pacing.scheduled += report.scheduled;
      pacing.sent += report.sent;
      pacing.late += report.late;
      pacing.maxLagMs = Math.max(pacing.maxLagMs, report.maxLagMs);
    }
    this.#resolveFinished({
      type: 'publisher-final',
      sentByStream: this.#sentByStream,
      errors: this.#errors,
      pacing,
    });
  }

  finished(): Promise<Report> {
    return this.#finished;
  }

  stop(): void {}
}

runDriver(new PublisherDriver(workerData.setup as PublisherSetup));

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
import type { PublisherSetup, Report } from './protocol.js';
import { type Driver, runDriver, type SecondStats } from './worker-runtime.js';

// At most this many milliseconds of one stream's schedule go out in one turn, so a catch-up cannot block the loop.
const maxBatchMs = 50;

class PublisherDriver implements Driver {
  readonly #publishers: Array<MqttPublisher<DeviceTelemetryPayloads>> = [];
  readonly #pacers: Pacer[];
  readonly #sentByStream: Record<string, number> = {};
  #errors = 0;
  #pending = 0;
  #resolveFinished: (report: Report) => void = () => {};
  readonly #finished = new Promise<Report>((resolve) => {
    this.#resolveFinished = resolve;
  });

  constructor(private readonly setup: PublisherSetup) {
    const profile = new LoadProfile(setup.profile.stages, setup.profile.holdSeconds);
    const rate = setup.ratePerStream;
    const total = Math.floor(rate * profile.area(profile.totalSeconds) + 1e-9);
    this.#pacers = setup.devices.map(
      () => new Pacer((elapsedMs) => rate * profile.area(elapsedMs / 1000), total, setup.lateAfterMs),
    );
  }

  async prepare(): Promise<void> {
    for (const device of this.setup.devices) {
      this.#sentByStream[device.streamId] = 0;
      this.#publishers.push(
        await createDeviceTelemetryPublisher({
          url: device.brokerUrl,
          parameters: { streamId: device.streamId },
          clientId: `load-${device.streamId}`,
          ...(device.username === undefined ? {} : { username: device.username }),
          ...(device.password === undefined ? {} : { password: device.password }),
          onError: () => {
            this.#errors += 1;
          },
        }),
      );
    }
  }

  start(startAt: number, now: () => number, stats: () => SecondStats): void {
    const messageId = deviceTelemetryMessagesByFormat[this.setup.format];
    const maxBatch = Math.max(1, Math.ceil((this.setup.ratePerStream * maxBatchMs) / 1000));
    const sequences = this.#publishers.map(() => 0);
    const turn = () => {
      const elapsed = now() - startAt;
      let remaining = 0;
      this.#publishers.forEach((publisher, index) => {
        const pacer = this.#pacers[index] as Pacer;
        const count = pacer.take(elapsed, maxBatch);
        for (let sent = 0; sent < count; sent += 1) {
          sequences[index] = (sequences[index] ?? 0) + 1;
          this.#publish(publisher, messageId, sequences[index] ?? 0, now(), stats);
        }
        remaining += pacer.remaining();
      });
      if (remaining > 0) setTimeout(turn, 1);
      else void this.#finish();
    };
    setTimeout(turn, Math.max(0, startAt - now()));
  }

  #publish(
    publisher: MqttPublisher<DeviceTelemetryPayloads>,
    messageId: (typeof deviceTelemetryMessagesByFormat)[keyof typeof deviceTelemetryMessagesByFormat],
    sequence: number,
    sentMs: number,
    stats: () => SecondStats,
  ): void {
    const streamId = publisher.topic.split('/').pop() ?? '';
    this.#pending += 1;
    publisher.publish(messageId, probeSample(sequence, sentMs), { qos: this.setup.qos }).then(
      () => {
        this.#pending -= 1;
        this.#sentByStream[streamId] = (this.#sentByStream[streamId] ?? 0) + 1;
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
    await Promise.all(this.#publishers.map((publisher) => publisher.close().catch(() => {})));
    const pacing = { scheduled: 0, sent: 0, late: 0, maxLagMs: 0 };
    for (const pacer of this.#pacers) {
      const report = pacer.report();
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

import { workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { LoadProfile } from '../load-profile.js';
import { Pacer } from '../pacer.js';
import { type RestCall, restCall, WeightedRoundRobin } from '../rest-operations.js';
import type { RestOperation } from '../scenario.js';
import type { Report, RestSetup } from './protocol.js';
import { type Driver, runDriver, type SecondStats } from './worker-runtime.js';

const maxBatch = 50;

class RestDriver implements Driver {
  readonly #pacers: Pacer[];
  readonly #mixes: Array<WeightedRoundRobin<RestOperation>>;
  readonly #dispatcher = new Agent({ connections: 64, pipelining: 1 });
  #pending = 0;
  #stopped = false;
  #resolveFinished: (report: Report) => void = () => {};
  readonly #finished = new Promise<Report>((resolve) => {
    this.#resolveFinished = resolve;
  });

  constructor(private readonly setup: RestSetup) {
    const profile = new LoadProfile(setup.profile.stages, setup.profile.holdSeconds);
    const total =
      setup.requestsPerKey ?? Math.floor(setup.ratePerKey * profile.area(profile.totalSeconds) + 1e-9);
    this.#pacers = setup.keys.map(
      () =>
        new Pacer((elapsedMs) => setup.ratePerKey * profile.area(elapsedMs / 1000), total, setup.lateAfterMs),
    );
    this.#mixes = setup.keys.map(
      () =>
        new WeightedRoundRobin(setup.mix.map((entry) => ({ item: entry.operation, weight: entry.weight }))),
    );
  }

  async prepare(): Promise<void> {
    // Fail early and clearly when the base URL is wrong, before any key's window is touched.
    try {
      const response = await request(`${this.setup.baseUrl}/`, { dispatcher: this.#dispatcher });
      await response.body.dump();
    } catch (error) {
      throw new Error(`cannot reach ${this.setup.baseUrl}: ${(error as Error).message}`);
    }
  }

  start(startAt: number, now: () => number, stats: () => SecondStats): void {
    const turn = () => {
      const elapsed = now() - startAt;
      let remaining = 0;
      this.setup.keys.forEach((key, index) => {
        const pacer = this.#pacers[index] as Pacer;
        const count = this.#stopped ? 0 : pacer.take(elapsed, maxBatch);
        for (let sent = 0; sent < count; sent += 1) {
          const operation = (this.#mixes[index] as WeightedRoundRobin<RestOperation>).next();
          this.#send(key, restCall(operation, this.setup.fixtures), now, stats);
        }
        remaining += pacer.remaining();
      });
      if (remaining > 0 && !this.#stopped) setTimeout(turn, 1);
      else void this.#finish();
    };
    setTimeout(turn, Math.max(0, startAt - now()));
  }

  #send(key: string, call: RestCall, now: () => number, stats: () => SecondStats): void {
    this.#pending += 1;
    const sentAt = now();
    const record = (status: string) => {
      this.#pending -= 1;
      const second = stats();
      second.sent += 1;
      second.statuses[status] = (second.statuses[status] ?? 0) + 1;
      second.latency.record(now() - sentAt);
    };
    request(`${this.setup.baseUrl}${call.path}`, {
      method: call.method as 'GET',
      headers: {
        authorization: `Bearer ${key}`,
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: call.body ?? null,
      dispatcher: this.#dispatcher,
    }).then(
      async (response) => {
        await response.body.dump();
        record(String(response.statusCode));
      },
      () => record('network-error'),
    );
  }

  async #finish(): Promise<void> {
    while (this.#pending > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.#dispatcher.close();
    const pacing = { scheduled: 0, sent: 0, late: 0, maxLagMs: 0 };
    for (const pacer of this.#pacers) {
      const report = pacer.report();
      pacing.scheduled += report.scheduled;
      pacing.sent += report.sent;
      pacing.late += report.late;
      pacing.maxLagMs = Math.max(pacing.maxLagMs, report.maxLagMs);
    }
    this.#resolveFinished({ type: 'rest-final', pacing });
  }

  finished(): Promise<Report> {
    return this.#finished;
  }

  /** Only an interrupted run stops REST early; otherwise it ends with its schedule. */
  stop(): void {
    this.#stopped = true;
  }
}

runDriver(new RestDriver(workerData.setup as RestSetup));

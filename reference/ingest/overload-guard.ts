import { EventLoopLag, type LoadReading, type LoadSignal } from './event-loop-lag.js';

/** Engine tuning, not interface (x-ingest-rules.overload leaves when to shed to the deployment; ADR 0029). */
export interface OverloadSettings {
  /** How often the load signal is read (wall time). */
  sampleIntervalMilliseconds: number;
  /** A reading at or above this lag... */
  enterLagMilliseconds: number;
  /** ...at or above this utilization of the event loop... */
  enterUtilization: number;
  /** ...and at or above this share of the time spent on ingest counts towards overload... */
  enterIngestShare: number;
  /** ...and this many in a row make the service overloaded (one pause of the service is one reading). */
  enterReadings: number;
  /** A reading at or below this lag (whatever the utilization) counts towards recovery... */
  exitLagMilliseconds: number;
  /** ...and this many in a row end the overload. */
  exitReadings: number;
  /** device.error service_overloaded events written per second over all streams (each stream still one a second). */
  errorEventsPerSecond: number;
}

/**
 * Two readings in a row: one pause of the service (a garbage collection, a database write, up to the rate window's
 * stallAllowanceSeconds) is one high reading followed by a short catch-up, so it never sheds; sustained overload
 * makes every turn of the loop longer than the last (turns grow geometrically when arrivals outpace the loop), so it
 * is caught within two turns. 150 ms sits above what a busy shared machine adds to a healthy service's loop and well
 * below the seconds an overloaded one falls behind; half a second at or below 50 ms ends it. The utilization keeps a
 * healthy service on a starved machine from shedding: a few per cent of work stretched by waiting for a CPU is late
 * but mostly idle, while a service that cannot keep up is busy all the time. Ingest's share keeps a loop that is
 * busy with something else (REST traffic, test clients in the same process) from shedding samples for nothing.
 */
export const defaultOverloadSettings: OverloadSettings = {
  sampleIntervalMilliseconds: 100,
  enterLagMilliseconds: 150,
  enterUtilization: 0.9,
  enterIngestShare: 0.5,
  enterReadings: 2,
  exitLagMilliseconds: 50,
  exitReadings: 5,
  errorEventsPerSecond: 20,
};

/** PUBLISHes dropped and CONNECTs refused because of overload, and the episodes of it, since start. */
export interface IngestShedding {
  shedMessages: number;
  refusedConnections: number;
  episodes: number;
}

/**
 * Decides whether the service is overloaded, from readings of a load signal with hysteresis: it enters after
 * `enterReadings` high readings in a row and leaves after `exitReadings` low ones in a row, so it does not flap.
 * Ingest asks it on every CONNECT and PUBLISH (a field read); it also counts what was shed for metrics.
 */
export class OverloadGuard {
  #overloaded = false;
  #streak = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly counts: IngestShedding = { shedMessages: 0, refusedConnections: 0, episodes: 0 };

  constructor(
    private readonly signal: LoadSignal = new EventLoopLag(),
    readonly settings: OverloadSettings = defaultOverloadSettings,
    private readonly onChange: (overloaded: boolean, reading: LoadReading) => void = () => {},
  ) {}

  get overloaded(): boolean {
    return this.#overloaded;
  }

  start(): void {
    if (this.#timer !== undefined) return;
    this.signal.read();
    this.#timer = setInterval(
      () => this.observe(this.signal.read()),
      this.settings.sampleIntervalMilliseconds,
    );
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.signal.close();
  }

  /** One reading of the signal (called by the timer; public so the state machine can be tested on its own). */
  observe(reading: LoadReading): void {
    const { enterReadings, exitLagMilliseconds, exitReadings } = this.settings;
    const towardsChange = this.#overloaded
      ? reading.lagMilliseconds <= exitLagMilliseconds
      : this.#counts(reading);
    this.#streak = towardsChange ? this.#streak + 1 : 0;
    if (this.#streak < (this.#overloaded ? exitReadings : enterReadings)) return;
    this.#overloaded = !this.#overloaded;
    this.#streak = 0;
    if (this.#overloaded) this.counts.episodes += 1;
    this.onChange(this.#overloaded, reading);
  }

  /** Ingest spent this long on one read from a device's socket (its share of the loop is part of the signal). */
  recordIngestTime(milliseconds: number): void {
    this.signal.recordIngestTime(milliseconds);
  }

  #counts({ lagMilliseconds, utilization, ingestShare }: LoadReading): boolean {
    const { enterLagMilliseconds, enterUtilization, enterIngestShare } = this.settings;
    return (
      lagMilliseconds >= enterLagMilliseconds &&
      utilization >= enterUtilization &&
      ingestShare >= enterIngestShare
    );
  }
}

import type { TelemetrySample } from '../../generated/types/schemas.js';
import type { Clock } from '../clock.js';
import type { FanoutBus, LiveMessage } from '../fanout/fanout-bus.js';
import type { RecordingFaults } from '../faults.js';
import type { Store } from '../storage/store.js';
import { maxBacklogSamples } from './recording-rules.js';
import { type AcknowledgedBatch, RecordingSession, type RecordingTarget } from './recording-session.js';
import { ShedCounter } from './shed-counter.js';

export interface StreamRecorderOptions {
  store: Store;
  clock: Clock;
  bus: FanoutBus;
  onAcknowledged?: (batch: AcknowledgedBatch) => void;
  onError?: (error: unknown) => void;
  /** Samples shed since the last call for this stream (at most one call per stream per second); logs by default. */
  onShed?: (streamId: string, samples: number) => void;
  /** Test-only broken behaviour (reference/faults.ts). */
  faults?: RecordingFaults | undefined;
}

/** A stream's current session: `session` is undefined while the stream is looked up, null when it is not recorded. */
interface SessionState {
  pending: TelemetrySample[];
  session: RecordingSession | null | undefined;
  ready: Promise<RecordingSession | null>;
}

/**
 * Records live streams into their reports (Record.x-recording). It listens to every stream on the bus: the first
 * telemetry message of a session looks the stream up once (is it recorded, into which report); an `idle` status ends
 * the session and flushes it. Lookups and writes run off the bus's delivery path.
 */
export class StreamRecorder {
  readonly #sessions = new Map<string, SessionState>();
  readonly #stopListening: () => void;
  readonly #onError: (error: unknown) => void;
  /** The end (last write) of each stream's previous session: the next one writes after it, so records stay in order. */
  readonly #ending = new Map<string, Promise<void>>();
  /** Samples not recorded because the database fell behind (Record.x-recording.backlog), per stream. */
  readonly shed: ShedCounter;

  constructor(private readonly options: StreamRecorderOptions) {
    this.#onError = options.onError ?? ((error) => console.error('recording:', error));
    this.shed = new ShedCounter(
      options.onShed ??
        ((streamId, samples) =>
          console.warn(`recording: ${samples} samples of ${streamId} not recorded, the database is behind`)),
    );
    this.#stopListening = options.bus.subscribeAll((message) => this.#receive(message));
  }

  /** Stops listening and writes what is buffered; resolves once every write has ended. */
  async close(): Promise<void> {
    this.#stopListening();
    for (const streamId of [...this.#sessions.keys()]) this.#end(streamId);
    while (this.#ending.size > 0) await Promise.all([...this.#ending.values()]);
  }

  #receive(message: LiveMessage): void {
    if (message.type === 'status') {
      if (message.status === 'idle') this.#end(message.streamId);
      return;
    }
    let state = this.#sessions.get(message.streamId);
    if (state === undefined) {
      state = this.#start(message.streamId);
      this.#sessions.set(message.streamId, state);
    }
    if (state.session !== undefined) state.session?.add(message.sample);
    // The lookup waits on the same database: the samples it holds back count against the same bound.
    else if (state.pending.length < maxBacklogSamples) state.pending.push(message.sample);
    else this.shed.shed(message.streamId);
  }

  #start(streamId: string): SessionState {
    const state: SessionState = { pending: [], session: undefined, ready: Promise.resolve(null) };
    const previous = this.#ending.get(streamId) ?? Promise.resolve();
    state.ready = previous
      .then(() => this.#target(streamId))
      .then(
        (target) => {
          state.session = target === null ? null : this.#session(target);
          // The samples that came during the lookup go first.
          for (const sample of state.pending.splice(0)) state.session?.add(sample);
          return state.session;
        },
        (error: unknown) => {
          state.session = null;
          this.#onError(error);
          return null;
        },
      );
    return state;
  }

  #session(target: RecordingTarget): RecordingSession {
    return new RecordingSession(
      target,
      this.options.store,
      this.options.clock,
      this.options.onAcknowledged ?? (() => {}),
      this.#onError,
      () => this.shed.shed(target.streamId),
      this.options.faults,
    );
  }

  /** The report a session records into, or null when the stream is not recorded or its report cannot take records. */
  async #target(streamId: string): Promise<RecordingTarget | null> {
    const stream = await this.options.store.streams.getById(streamId);
    if (stream === null || stream.recordingReportId === null) return null;
    const report = await this.options.store.reports.get(stream.accountId, stream.recordingReportId);
    if (report === null || report.status === 'archived') return null;
    return { accountId: stream.accountId, reportId: report.id, streamId };
  }

  #end(streamId: string): void {
    const state = this.#sessions.get(streamId);
    if (state === undefined) return;
    this.#sessions.delete(streamId);
    const ended: Promise<void> = state.ready
      .then((session) => session?.flush())
      .finally(() => {
        if (this.#ending.get(streamId) === ended) this.#ending.delete(streamId);
      });
    this.#ending.set(streamId, ended);
  }
}

import type { TelemetrySample } from '../../generated/types/schemas.js';
import { type Clock, isoTime } from '../clock.js';
import type { RecordingFaults } from '../faults.js';
import { newId } from '../services/ids.js';
import type { Store } from '../storage/store.js';
import {
  flushIntervalMilliseconds,
  flushSamples,
  maxBacklogSamples,
  maxSamplesPerRecord,
} from './recording-rules.js';

/** Where a session is recorded: decided once, when it starts (Record.x-recording.reportChanges). */
export interface RecordingTarget {
  accountId: string;
  reportId: string;
  streamId: string;
}

/** A batch whose write committed: it survives a crash from now on. */
export interface AcknowledgedBatch {
  streamId: string;
  recordId: string;
  samples: number;
}

/**
 * One live session of one recorded stream: samples are buffered and written as one statement per batch (flushSamples
 * or flushIntervalMilliseconds, whichever comes first), one batch at a time and in order, into the session's current
 * record until it holds maxSamplesPerRecord samples or is published, then into a new one. When the database falls
 * behind, at most maxBacklogSamples wait unwritten; newer samples are shed (`onShed`) until writes catch up.
 */
export class RecordingSession {
  #buffer: TelemetrySample[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writes: Promise<void> = Promise.resolve();
  #recordId: string | null = null;
  #recordSamples = 0;
  #failed = false;
  /** Received but not yet committed: buffered plus queued batches. */
  #unwritten = 0;

  constructor(
    private readonly target: RecordingTarget,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly onAcknowledged: (batch: AcknowledgedBatch) => void,
    private readonly onError: (error: unknown) => void,
    private readonly onShed: () => void = () => {},
    private readonly faults: RecordingFaults | undefined = undefined,
  ) {}

  add(sample: TelemetrySample): void {
    if (this.#failed) return;
    if (this.#unwritten >= maxBacklogSamples) {
      this.onShed();
      return;
    }
    this.#unwritten += 1;
    this.#buffer.push(sample);
    if (this.#buffer.length >= flushSamples) this.flush();
    else if (this.#timer === undefined)
      this.#timer = setTimeout(() => this.flush(), flushIntervalMilliseconds);
  }

  /** Queues the buffered samples for writing; resolves when every write queued so far has ended. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#buffer;
    this.#buffer = [];
    if (batch.length > 0 && !this.#failed)
      this.#writes = this.#writes.then(() => this.#write(batch)).catch((error: unknown) => this.#fail(error));
    return this.#writes;
  }

  async #write(batch: TelemetrySample[]): Promise<void> {
    for (let start = 0; start < batch.length && !this.#failed; ) {
      const room = this.#recordId === null ? 0 : maxSamplesPerRecord - this.#recordSamples;
      const part = batch.slice(start, start + (room > 0 ? room : maxSamplesPerRecord));
      if (room > 0 && this.#recordId !== null) {
        const count = await this.store.records.appendSamples(this.target.accountId, this.#recordId, part);
        if (count === null) {
          // Published meanwhile, so fixed: the session goes on in a new record (Record.x-recording.published).
          const exists = (await this.store.records.get(this.target.accountId, this.#recordId)) !== null;
          if (exists && this.faults?.publishedRecordEndsRecording !== true) {
            this.#recordId = null;
            continue;
          }
          // The record (or its report) was deleted meanwhile: the rest of the session is not recorded.
          return this.#fail(null);
        }
        this.#recordSamples = count;
      } else {
        this.#recordId = await this.#newRecord(part);
        this.#recordSamples = part.length;
      }
      start += part.length;
      this.#unwritten -= part.length;
      this.onAcknowledged({ streamId: this.target.streamId, recordId: this.#recordId, samples: part.length });
    }
  }

  async #newRecord(samples: TelemetrySample[]): Promise<string> {
    const row = await this.store.records.insert({
      id: newId('RecordId'),
      accountId: this.target.accountId,
      reportId: this.target.reportId,
      status: 'draft',
      source: 'stream',
      streamId: this.target.streamId,
      title: null,
      samples,
      createdAt: isoTime(this.clock),
      publishedAt: null,
    });
    return row.id;
  }

  #fail(error: unknown): void {
    this.#failed = true;
    this.#buffer = [];
    clearTimeout(this.#timer);
    if (error !== null) this.onError(error);
  }
}

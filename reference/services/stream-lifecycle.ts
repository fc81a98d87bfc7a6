/**
 * Tells the live parts of the service (fan-out, ingest) what the REST API did to a stream, without services/
 * knowing about sockets: `start()` registers the listeners, `deleteStream` reports the deletion once it is stored.
 */
export interface StreamLifecycle {
  streamDeleted(streamId: string): void;
}

type DeletionListener = (streamId: string) => void;

export class StreamLifecycleEvents implements StreamLifecycle {
  readonly #onDeleted = new Set<DeletionListener>();

  /** For the service's lifetime: its live parts listen from start to stop, so no listener is ever taken back. */
  onStreamDeleted(listener: DeletionListener): void {
    this.#onDeleted.add(listener);
  }

  streamDeleted(streamId: string): void {
    for (const listener of this.#onDeleted) listener(streamId);
  }
}

/** For callers with no live parts (unit tests of the REST layer). */
// Stryker disable next-line ObjectLiteral: reached only by unit tests of the REST layer; every started service passes its own lifecycle
export const noStreamLifecycle: StreamLifecycle = { streamDeleted: () => {} };

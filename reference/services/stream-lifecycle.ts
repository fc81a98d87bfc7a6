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

  /** Returns the function that stops listening. */
  onStreamDeleted(listener: DeletionListener): () => void {
    this.#onDeleted.add(listener);
    return () => this.#onDeleted.delete(listener);
  }

  streamDeleted(streamId: string): void {
    for (const listener of this.#onDeleted) listener(streamId);
  }
}

/** For callers with no live parts (unit tests of the REST layer). */
export const noStreamLifecycle: StreamLifecycle = { streamDeleted: () => {} };

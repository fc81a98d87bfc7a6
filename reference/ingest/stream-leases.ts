/**
 * Which node holds a stream's device connection, when several nodes share one store (ADR 0023). Without it (one
 * node) the in-memory claim of `StreamSessions` and the store's conditional update are enough.
 */
export interface StreamLeases {
  /** Takes the stream's lease for this node; false while any node (this one included) holds it. */
  acquire(streamId: string): Promise<boolean>;
  /** Gives the lease up, only if this node still holds it. */
  release(streamId: string): Promise<void>;
}

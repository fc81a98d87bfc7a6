/**
 * When a change of a stream's subscriberCount goes out as a status message (x-connection-rules
 * subscriberCountMessages): the first change at once, and every change in the window after a message as one message
 * when the window ends, carrying the count as it is then. A crowd joining costs each subscriber one message per
 * window instead of one per newcomer. The window follows the wall clock, like the keep-alive.
 */
export class CountAnnouncements<Latest> {
  /** Streams whose window is open, and whether a change is owed when it ends. */
  readonly #windows = new Map<string, { timer: NodeJS.Timeout; owed: Latest | undefined }>();

  constructor(
    private readonly windowMilliseconds: number,
    /** Sends the stream's count as it is now; `latest` is what the window's last change came with. */
    private readonly announce: (streamId: string, latest: Latest) => void,
  ) {}

  /** A change of the stream's count: true when it is to be sent now, false when the open window owes it. */
  changed(streamId: string, latest: Latest): boolean {
    const window = this.#windows.get(streamId);
    if (window !== undefined) {
      window.owed = latest;
      return false;
    }
    this.#open(streamId);
    return true;
  }

  /** Drops what a stream owes (it was deleted, or its count is told some other way). */
  forget(streamId: string): void {
    clearTimeout(this.#windows.get(streamId)?.timer);
    this.#windows.delete(streamId);
  }

  close(): void {
    for (const streamId of [...this.#windows.keys()]) this.forget(streamId);
  }

  #open(streamId: string): void {
    const timer = setTimeout(() => this.#end(streamId), this.windowMilliseconds);
    timer.unref();
    this.#windows.set(streamId, { timer, owed: undefined });
  }

  #end(streamId: string): void {
    const owed = this.#windows.get(streamId)?.owed;
    this.#windows.delete(streamId);
    if (owed === undefined) return;
    // The owed message opens a window of its own, so the next crowd is coalesced too.
    this.#open(streamId);
    this.announce(streamId, owed);
  }
}

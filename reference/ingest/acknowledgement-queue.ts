interface Group {
  /** What the bus must have accepted before these replies may leave; null once it has. */
  accepted: Promise<void> | null;
  replies: Buffer[];
}

/**
 * The PUBACKs of one device connection, held until the fan-out bus accepted the samples they acknowledge
 * (x-ingest-rules.acknowledgedSample) and sent in the order the PUBLISHes arrived [MQTT-4.6.0-2]. With the
 * in-process bus nothing waits: a reply with nothing ahead of it is written at once. With Redis the replies of one
 * bus batch wait together and leave in one write once Redis answered.
 */
export class AcknowledgementQueue {
  readonly #waiting: Group[] = [];

  constructor(
    private readonly write: (bytes: Buffer) => void,
    /** The bus could not pass the samples on: the replies are never sent, the connection must close. */
    private readonly failed: (error: unknown) => void,
  ) {}

  /** `accepted` is the bus's answer for an accepted sample, null for a dropped one (nothing to wait for). */
  add(reply: Buffer, accepted: Promise<void> | null): void {
    const last = this.#waiting.at(-1);
    if (last === undefined && accepted === null) {
      this.write(reply);
      return;
    }
    if (last !== undefined && (accepted === null || accepted === last.accepted)) {
      last.replies.push(reply);
      return;
    }
    const group: Group = { accepted, replies: [reply] };
    this.#waiting.push(group);
    accepted?.then(
      () => this.#release(group),
      (error: unknown) => this.#fail(error),
    );
  }

  #release(group: Group): void {
    group.accepted = null;
    while (this.#waiting[0]?.accepted === null) {
      const { replies } = this.#waiting.shift() as Group;
      this.write(replies.length === 1 ? (replies[0] as Buffer) : Buffer.concat(replies));
    }
  }

  #fail(error: unknown): void {
    if (this.#waiting.length === 0) return;
    this.#waiting.length = 0;
    this.failed(error);
  }
}

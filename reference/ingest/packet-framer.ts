/** The fixed header of an MQTT packet: type (high nibble), flags (low nibble), remaining length (bytes after it). */
export interface PacketHeader {
  type: number;
  flags: number;
  remainingLength: number;
}

export interface FramerHandlers {
  /** A whole packet within its type's bound, fixed header included. */
  packet(bytes: Buffer): void;
  /** A packet over its bound: its header and the first `prefixBytes` of its body; the rest is skipped unbuffered. */
  oversized(header: PacketHeader, prefix: Buffer): void;
  /** The remaining length is not a valid variable byte integer: the stream cannot be framed any further. */
  malformed(reason: string): void;
}

const maxLengthBytes = 4;

/**
 * Cuts a connection's bytes into MQTT packets before anything parses them, so no packet over its bound is ever
 * buffered: mqtt-packet's parser would collect a 1 MB CONNECT whole before looking at it. Memory per connection is
 * at most one packet within the bound (or one prefix) plus one incoming chunk.
 */
export class PacketFramer {
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** Bytes of an oversized packet still to skip. */
  #skipping = 0;
  /** The oversized packet whose prefix is being collected. */
  #prefixOf: { header: PacketHeader; prefixBytes: number } | null = null;
  /** Bytes the buffered unit needs before it can be handled: no concatenation until they are there. */
  #needed = 0;
  #stopped = false;
  #paused = false;

  constructor(
    private readonly limitFor: (type: number) => number,
    private readonly prefixBytes: number,
    private readonly handlers: FramerHandlers,
  ) {}

  /** Holds what arrives until `resume()` (while a CONNECT is being authenticated; the socket is paused too). */
  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    if (this.#chunks.length > 0) this.#drain();
  }

  /** No more callbacks after this (the connection is closing). */
  stop(): void {
    this.#stopped = true;
    this.#chunks = [];
  }

  push(chunk: Buffer): void {
    if (this.#stopped) return;
    if (this.#skipping > 0) {
      const skipped = Math.min(this.#skipping, chunk.length);
      this.#skipping -= skipped;
      chunk = chunk.subarray(skipped);
      if (chunk.length === 0) return;
    }
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    // A packet trickling in byte by byte must not cost a concatenation per byte.
    if (this.#buffered >= this.#needed && !this.#paused) this.#drain();
  }

  #drain(): void {
    let data = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks);
    let offset = 0;
    this.#needed = 0;
    while (!this.#stopped && !this.#paused && offset < data.length) {
      const consumed = this.#next(data, offset);
      if (consumed === 0) break;
      offset += consumed;
      if (this.#skipping > 0) {
        const skipped = Math.min(this.#skipping, data.length - offset);
        this.#skipping -= skipped;
        offset += skipped;
      }
    }
    data = data.subarray(offset);
    this.#chunks = data.length === 0 || this.#stopped ? [] : [data];
    this.#buffered = this.#chunks.length === 0 ? 0 : data.length;
  }

  /** Handles the unit starting at `offset`; returns the bytes it consumed, 0 when more bytes are needed. */
  #next(data: Buffer, offset: number): number {
    const available = data.length - offset;
    if (this.#prefixOf !== null) {
      const { header, prefixBytes } = this.#prefixOf;
      if (available < prefixBytes) return this.#need(prefixBytes);
      this.#prefixOf = null;
      this.#skipping = header.remainingLength - prefixBytes;
      this.handlers.oversized(header, Buffer.from(data.subarray(offset, offset + prefixBytes)));
      return prefixBytes;
    }
    const header = this.#header(data, offset);
    if (header === null) return this.#need(Math.min(available + 1, maxLengthBytes + 1));
    const { type, flags, remainingLength, headerBytes } = header;
    if (remainingLength > this.limitFor(type)) {
      this.#prefixOf = {
        header: { type, flags, remainingLength },
        prefixBytes: Math.min(remainingLength, this.prefixBytes),
      };
      return headerBytes;
    }
    const total = headerBytes + remainingLength;
    if (available < total) return this.#need(total);
    this.handlers.packet(data.subarray(offset, offset + total));
    return total;
  }

  #need(bytes: number): 0 {
    this.#needed = bytes;
    return 0;
  }

  #header(data: Buffer, offset: number): (PacketHeader & { headerBytes: number }) | null {
    const first = data[offset];
    if (first === undefined) return null;
    let remainingLength = 0;
    for (let index = 0; index < maxLengthBytes; index += 1) {
      const byte = data[offset + 1 + index];
      if (byte === undefined) return null;
      remainingLength += (byte & 0x7f) * 128 ** index;
      if ((byte & 0x80) === 0)
        return { type: first >> 4, flags: first & 0x0f, remainingLength, headerBytes: index + 2 };
    }
    this.handlers.malformed('the remaining length is longer than four bytes');
    this.stop();
    return null;
  }
}

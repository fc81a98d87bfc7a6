import type { FrameFault } from './live-feed-proxy.js';

type LiveMessage = { seq?: number; type?: string } & Record<string, unknown>;

/** Every `every`-th message of a subscriber vanishes, and later ones are renumbered: seq stays contiguous. */
export function dropEvery(every: number): () => FrameFault {
  return () => {
    let seen = 0;
    let dropped = 0;
    return (frame) => {
      const messages = JSON.parse(frame) as LiveMessage[];
      const kept: LiveMessage[] = [];
      for (const message of messages) {
        seen += 1;
        if (seen % every === 0) dropped += 1;
        else kept.push({ ...message, seq: (message.seq ?? 0) - dropped });
      }
      if (dropped === 0) return [frame];
      return kept.length === 0 ? [] : [JSON.stringify(kept)];
    };
  };
}

/** From the `after`-th message of a subscriber on, seq skips one number; no message is lost. */
export function sequenceGapAfter(after: number): () => FrameFault {
  return () => {
    let seen = 0;
    return (frame) => {
      const messages = JSON.parse(frame) as LiveMessage[];
      const start = seen;
      seen += messages.length;
      if (seen <= after) return [frame];
      const shifted = messages.map((message, index) =>
        start + index + 1 > after ? { ...message, seq: (message.seq ?? 0) + 1 } : message,
      );
      return [JSON.stringify(shifted)];
    };
  };
}

/** The frame that carries a subscriber's `every`-th message (and each multiple) is sent twice. */
export function duplicateFrameEvery(every: number): () => FrameFault {
  return () => {
    let seen = 0;
    return (frame) => {
      const count = (JSON.parse(frame) as unknown[]).length;
      const crosses = Math.floor((seen + count) / every) > Math.floor(seen / every);
      seen += count;
      return crosses ? [frame, frame] : [frame];
    };
  };
}

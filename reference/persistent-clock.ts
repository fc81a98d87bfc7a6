import type { Clock } from './clock.js';
import type { ClockAnchor } from './storage/rows.js';
import type { Store } from './storage/store.js';

/**
 * A scaled clock that keeps running across restarts: scaled time is computed from the wall clock and an anchor kept
 * in the store, so time spent stopped passes too (scaled), a retry that fell due meanwhile is due at once after a
 * restart and never early, and timestamps never go backwards. A new scale re-anchors at the time reached so far.
 */
export async function persistentClock(store: Store, scale: number): Promise<Clock> {
  if (!(scale > 0)) throw new RangeError(`time scale must be positive, got ${scale}`);
  const wallMs = Date.now();
  const stored = await store.serviceClock.read();
  let anchor: ClockAnchor = { wallMs, scaledMs: wallMs, scale };
  if (stored !== null) {
    // A wall clock set back since the anchor must not take scaled time back with it.
    const reached = stored.scaledMs + Math.max(0, wallMs - stored.wallMs) * stored.scale;
    anchor =
      stored.scale === scale && wallMs >= stored.wallMs ? stored : { wallMs, scaledMs: reached, scale };
  }
  if (anchor !== stored) await store.serviceClock.write(anchor);
  return anchoredClock(anchor);
}

/** Scaled time from an anchor, never going backwards within the process even if the wall clock does. */
export function anchoredClock(anchor: ClockAnchor): Clock {
  let latest = anchor.scaledMs;
  return {
    scale: anchor.scale,
    now() {
      latest = Math.max(latest, anchor.scaledMs + (Date.now() - anchor.wallMs) * anchor.scale);
      return latest;
    },
    schedule(callback, milliseconds) {
      const timer = setTimeout(callback, Math.max(0, milliseconds / anchor.scale));
      timer.unref();
      return () => clearTimeout(timer);
    },
  };
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { persistentClock } from './persistent-clock.js';
import { openStore } from './storage/open-store.js';
import type { Store } from './storage/store.js';

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('persistentClock', () => {
  let directory: string;
  let store: Store;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'clock-'));
    store = await openStore({ kind: 'embedded', dataDir: directory });
  });
  afterAll(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('starts at wall time, then keeps running (scaled) across a restart instead of starting again', async () => {
    const first = await persistentClock(store, 1000);
    const anchor = await store.serviceClock.read();
    expect(anchor?.scaledMs).toBe(anchor?.wallMs);
    expect(Math.abs((anchor?.wallMs ?? 0) - Date.now())).toBeLessThan(5000);
    const before = first.now();
    await pause(50);
    const second = await persistentClock(store, 1000);
    // The 50 ms "downtime" passed as 50 s of service time.
    expect(second.now() - before).toBeGreaterThanOrEqual(45_000);
  });

  it('re-anchors at the time reached when the scale changes, never going back', async () => {
    const fast = await persistentClock(store, 1000);
    await pause(20);
    const reached = fast.now();
    const slow = await persistentClock(store, 1);
    expect(slow.now()).toBeGreaterThanOrEqual(reached);
    expect((await store.serviceClock.read())?.scale).toBe(1);
  });

  it('does not go back when the wall clock was set back since the anchor', async () => {
    const future = { wallMs: Date.now() + 3_600_000, scaledMs: Date.now() + 7_200_000, scale: 1 };
    await store.serviceClock.write(future);
    const clock = await persistentClock(store, 1);
    expect(clock.now()).toBeGreaterThanOrEqual(future.scaledMs);
  });
});

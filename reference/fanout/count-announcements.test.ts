import { afterEach, describe, expect, it } from 'vitest';
import { CountAnnouncements } from './count-announcements.js';

const window = 40;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('subscriber-count announcements', () => {
  let announcements: CountAnnouncements<number> | undefined;
  afterEach(() => announcements?.close());

  it('sends the first change at once and the changes of the window after it as one message at its end', async () => {
    const owed: string[] = [];
    announcements = new CountAnnouncements<number>(window, (streamId, latest) =>
      owed.push(`${streamId} ${latest}`),
    );
    expect(announcements.changed('stm_a', 1)).toBe(true);
    expect([2, 3, 4].map((count) => announcements?.changed('stm_a', count))).toEqual([false, false, false]);
    // Another stream has a window of its own.
    expect(announcements.changed('stm_b', 1)).toBe(true);
    expect(owed).toEqual([]);
    await expect.poll(() => owed, { interval: 5 }).toEqual(['stm_a 4']);
    // The owed message opened a window: a change right after it waits for that window too.
    expect(announcements.changed('stm_a', 5)).toBe(false);
    await expect.poll(() => owed, { interval: 5 }).toEqual(['stm_a 4', 'stm_a 5']);
    await sleep(window * 3);
    expect(owed).toEqual(['stm_a 4', 'stm_a 5']);
    expect(announcements.changed('stm_a', 6)).toBe(true);
  });

  it('owes nothing for a window without a second change, and nothing for a forgotten stream', async () => {
    const owed: string[] = [];
    announcements = new CountAnnouncements<number>(window, (streamId, latest) =>
      owed.push(`${streamId} ${latest}`),
    );
    expect(announcements.changed('stm_quiet', 1)).toBe(true);
    expect(announcements.changed('stm_deleted', 1)).toBe(true);
    expect(announcements.changed('stm_deleted', 2)).toBe(false);
    announcements.forget('stm_deleted');
    await sleep(window * 3);
    expect(owed).toEqual([]);
  });
});

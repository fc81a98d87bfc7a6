import type { CacheChange } from './cached-store.js';

/** What a notification names (`all`: TRUNCATE, or anything on the channel that is not the trigger's). */
export type Notified = { all: true } | { apiKeyId: string; apiKeyHash: string } | { accountId: string };

/** The trigger's payload; anything else on the channel (a NOTIFY by hand) is taken as "everything may have changed". */
export function parseNotification(payload: string | undefined): Notified {
  try {
    const parsed = JSON.parse(payload ?? '') as Partial<Record<string, unknown>>;
    if (typeof parsed.accountId === 'string') return { accountId: parsed.accountId };
    if (typeof parsed.apiKeyId === 'string' && typeof parsed.apiKeyHash === 'string')
      return { apiKeyId: parsed.apiKeyId, apiKeyHash: parsed.apiKeyHash };
  } catch {
    // Not JSON: treated as below.
  }
  return { all: true };
}

const matches = (notified: Notified, change: CacheChange): boolean =>
  'all' in notified ||
  ('accountId' in change
    ? 'accountId' in notified && notified.accountId === change.accountId
    : 'apiKeyId' in notified &&
      ('apiKeyId' in change
        ? notified.apiKeyId === change.apiKeyId
        : notified.apiKeyHash === change.apiKeyHash));

interface Waiter {
  change: CacheChange;
  resolve(): void;
}

/** Writes waiting to hear their own change back from the database, each for a bounded time. */
export class ChangeEchoes {
  readonly #waiters = new Set<Waiter>();

  constructor(private readonly boundMilliseconds: number) {}

  /** Registered before the write; `heard()` resolves on the matching notification, `release`, or the bound. */
  expect(change: CacheChange): { heard(): Promise<void>; cancel(): void } {
    let resolve = () => {};
    const heard = new Promise<void>((done) => {
      resolve = done;
    });
    const waiter: Waiter = { change, resolve };
    this.#waiters.add(waiter);
    return {
      heard: () => bounded(heard, this.boundMilliseconds),
      cancel: () => this.#waiters.delete(waiter),
    };
  }

  /** Resolves the waiters `notified` answers; every waiter without an argument (nothing more will come back). */
  release(notified?: Notified): void {
    for (const waiter of this.#waiters)
      if (notified === undefined || matches(notified, waiter.change)) {
        this.#waiters.delete(waiter);
        waiter.resolve();
      }
  }
}

/** `promise`, or nothing after `milliseconds`. */
async function bounded(promise: Promise<void>, milliseconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, milliseconds);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

import type { Store } from '../storage/store.js';

/**
 * Tells the dispatcher when deliveries may have become due, so that it claims at once instead of at its next poll:
 * after a committed insert of a delivery (an event recorded) or a replay. Writes inside a transaction signal once it
 * has committed, never before (the dispatcher would not see the rows yet).
 */
export class OutboxSignal {
  readonly #listeners = new Set<() => void>();

  /** The store whose delivery writes signal; everything else passes through. */
  watch(store: Store): Store {
    return signalling(store, () => this.#emit());
  }

  /** Calls `listener` after each signalling write; returns the function that stops it. */
  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

function signalling(store: Store, changed: () => void): Store {
  return {
    ...store,
    deliveries: {
      ...store.deliveries,
      async insert(row) {
        const inserted = await store.deliveries.insert(row);
        changed();
        return inserted;
      },
      async requeue(accountId, webhookId, id, at) {
        const requeued = await store.deliveries.requeue(accountId, webhookId, id, at);
        if (requeued !== null) changed();
        return requeued;
      },
    },
    async transaction(work) {
      let written = false;
      const result = await store.transaction((transaction) =>
        work(
          signalling(transaction, () => {
            written = true;
          }),
        ),
      );
      if (written) changed();
      return result;
    },
  };
}

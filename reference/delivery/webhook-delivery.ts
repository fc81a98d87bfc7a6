import type { Clock } from '../clock.js';
import type { DeliveryFaults } from '../faults.js';
import type { Store } from '../storage/store.js';
import { faultySender } from './delivery-faults.js';
import type { DeliveryLog } from './delivery-log.js';
import { Dispatcher, type DispatcherOptions } from './dispatcher.js';
import type { Resolver } from './guarded-lookup.js';
import type { OutboxSignal } from './outbox-signal.js';
import { createSender, type Sender, type SenderOptions } from './sender.js';
import type { TargetPolicy } from './target-address.js';
import { createThreadSender } from './thread-sender.js';

export interface WebhookDeliveryOptions {
  store: Store;
  clock: Clock;
  policy: TargetPolicy;
  log: DeliveryLog;
  resolver?: Resolver;
  /** Only one process uses this store (the embedded database): leases left by a killed process are released. */
  soleOwner?: boolean;
  /** Tests: a shorter receiver timeout, a certificate authority, smaller limits. */
  timeoutMs?: number;
  ca?: string;
  /** Signals new deliveries and replays written through the service's store: claimed at once, not at the poll. */
  outbox?: OutboxSignal;
  /** Send from a worker thread of its own (true), or from the service's thread (the default; ADR 0032 says why). */
  senderThread?: boolean;
  /** Test-only faults (reference/faults.ts). */
  faults?: DeliveryFaults | undefined;
  tuning?: Pick<DispatcherOptions, 'maxInFlight' | 'perWebhook' | 'batchSize' | 'idlePollMs' | 'stopGraceMs'>;
}

export interface WebhookDelivery {
  dispatcher: Dispatcher;
  stop(): Promise<void>;
}

/** Starts delivering: the sender (one pooled undici Agent) and the dispatcher loop over the store's outbox. */
export async function startWebhookDelivery(options: WebhookDeliveryOptions): Promise<WebhookDelivery> {
  // A killed process cannot finish its sends; with one owner of the store no other node holds a lease either.
  if (options.soleOwner) await options.store.deliveries.release(null, null);
  const senderOptions: SenderOptions = {
    policy: options.policy,
    ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
    connectionsPerOrigin: options.tuning?.perWebhook ?? 16,
  };
  let sender: Sender;
  if (options.senderThread !== true) sender = createSender(senderOptions);
  else {
    const threadSender = createThreadSender(senderOptions);
    threadSender.warm();
    sender = threadSender;
  }
  sender = faultySender(sender, options.faults);
  const dispatcher = new Dispatcher({
    store: options.store,
    clock: options.clock,
    sender,
    log: options.log,
    soleOwner: options.soleOwner ?? false,
    faults: options.faults,
    ...options.tuning,
  });
  const unlisten = options.outbox?.listen(() => dispatcher.wake());
  dispatcher.start();
  return {
    dispatcher,
    async stop() {
      unlisten?.();
      await dispatcher.stop();
      await sender.close();
    },
  };
}

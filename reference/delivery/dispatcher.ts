import { randomUUID } from 'node:crypto';
import { apiPolicies } from '../../generated/types/facts.js';
import type { Clock } from '../clock.js';
import type { DeliveryFaults } from '../faults.js';
import type { ClaimedDelivery } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import { faultyRetryDelays, signingTime } from './delivery-faults.js';
import type { DeliveryLog } from './delivery-log.js';
import { outcomeOf } from './retry-schedule.js';
import { SendGate } from './send-gate.js';
import type { Sender } from './sender.js';
import { Settler } from './settler.js';
import { signedRequest } from './signed-request.js';

export interface DispatcherOptions {
  store: Store;
  clock: Clock;
  sender: Sender;
  log: DeliveryLog;
  /** Deliveries being sent at once by this process. */
  maxInFlight?: number;
  /** Of which at most this many sent to one webhook at once, so a slow receiver holds only its own share. */
  perWebhook?: number;
  /**
   * The only dispatcher of its store (the embedded database): claims write no lease, its own deliveries in flight
   * are left out of its claims instead, and it may claim `claimRounds` × `perWebhook` of one webhook at once.
   */
  soleOwner?: boolean;
  claimRounds?: number;
  /** Deliveries claimed per query. */
  batchSize?: number;
  /** How often an idle dispatcher looks for due deliveries, in wall-clock milliseconds. */
  idlePollMs?: number;
  /** How long stop() lets sends in flight finish before releasing their leases, in wall-clock milliseconds. */
  stopGraceMs?: number;
  /** Test-only faults (reference/faults.ts); none by default. */
  faults?: DeliveryFaults | undefined;
}

// A lease outlives the longest attempt (the receiver timeout) by this margin, in wall-clock terms.
const leaseMarginMs = 10_000;
const receiverTimeoutMs = apiPolicies.webhookDelivery.receiver.timeoutSeconds * 1000;

/**
 * The delivery loop: claims due deliveries in batches (as many as there are free slots), sends each, and records
 * each attempt with its outcome. It runs until stop(); sends in flight at stop() finish within a grace period, or
 * their leases are released so that the next claim (here after a restart, or on another node) sends them.
 */
export class Dispatcher {
  readonly #options: Required<Omit<DispatcherOptions, 'faults'>>;
  readonly #faults: DeliveryFaults | undefined;
  readonly #settler: Settler;
  readonly #claimToken = randomUUID();
  readonly #inFlight = new Map<string, string>();
  readonly #perWebhook = new Map<string, number>();
  readonly #gate: SendGate;
  #running = false;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #woken = false;
  /** A retry this process scheduled has fallen due: claim at once, even for a few free slots. */
  #retryDue = false;
  #cancelTimer: (() => void) | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  /** Due times (service clock) of the retries this process scheduled, earliest first. */
  readonly #dueTimes: number[] = [];
  readonly #retryDelays: readonly number[];

  constructor(options: DispatcherOptions) {
    this.#options = {
      maxInFlight: 256,
      perWebhook: 16,
      soleOwner: false,
      claimRounds: 4,
      batchSize: 100,
      idlePollMs: 25,
      stopGraceMs: 2000,
      ...options,
    };
    this.#settler = new Settler(options.store);
    this.#gate = new SendGate(this.#options.perWebhook);
    this.#faults = options.faults;
    this.#retryDelays = faultyRetryDelays(apiPolicies.webhookDelivery.retryDelaysSeconds, options.faults);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Looks for due deliveries now rather than at the next poll. */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    this.#cancelTimer?.();
    await this.#loop;
    const deadline = Date.now() + this.#options.stopGraceMs;
    while (this.#inFlight.size > 0 && Date.now() < deadline) await this.#pause(10);
    await this.#settler.idle();
    const abandoned = [...this.#inFlight.keys()];
    this.#inFlight.clear();
    if (abandoned.length > 0 && !this.#options.soleOwner)
      await this.#options.store.deliveries.release(this.#claimToken, abandoned);
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const free = this.#options.maxInFlight - this.#inFlight.size;
      // Claim in batches, not for every freed slot: each claim is a query, and PGlite runs queries on this thread.
      const worthClaiming =
        free >= this.#options.batchSize / 2 || this.#inFlight.size === 0 || this.#retryDue;
      const wanted = worthClaiming ? Math.min(free, this.#options.batchSize) : 0;
      if (wanted > 0) this.#retryDue = false;
      let claimed: ClaimedDelivery[] = [];
      if (wanted > 0) {
        try {
          claimed = await this.#claim(wanted);
        } catch (error) {
          this.#options.log.info({ error: String(error) }, 'webhook delivery: claiming failed');
        }
      }
      for (const delivery of claimed) this.#send(delivery);
      // A full batch means more may be due: claim again at once, as long as there are free slots.
      if (!this.#running || (claimed.length === wanted && wanted > 0)) continue;
      await this.#pause(this.#options.idlePollMs);
    }
  }

  #claim(limit: number): Promise<ClaimedDelivery[]> {
    const { clock, store, soleOwner, perWebhook, claimRounds } = this.#options;
    const now = clock.now();
    const leaseWallMs = receiverTimeoutMs + leaseMarginMs;
    return store.deliveries.claim({
      now: new Date(now).toISOString(),
      leaseUntil: soleOwner ? null : new Date(now + leaseWallMs * clock.scale).toISOString(),
      held: soleOwner ? [...this.#inFlight.keys()] : [],
      limit,
      // A lease covers one send; without one a webhook's claim may hold several rounds, sent through the gate.
      perWebhook: soleOwner ? perWebhook * claimRounds : perWebhook,
      inFlightPerWebhook: this.#perWebhook,
      claimToken: this.#claimToken,
    });
  }

  #send(claimed: ClaimedDelivery): void {
    const { id, webhookId } = claimed.delivery;
    this.#inFlight.set(id, webhookId);
    this.#perWebhook.set(webhookId, (this.#perWebhook.get(webhookId) ?? 0) + 1);
    void this.#gate
      .run(webhookId, () => this.#attempt(claimed))
      .finally(() => {
        this.#inFlight.delete(id);
        const left = (this.#perWebhook.get(webhookId) ?? 1) - 1;
        if (left === 0) this.#perWebhook.delete(webhookId);
        else this.#perWebhook.set(webhookId, left);
        this.wake();
      });
  }

  async #attempt(claimed: ClaimedDelivery): Promise<void> {
    const { clock, sender, log } = this.#options;
    // Waited at the gate past stop(): left unsent (no lease to release, or released with the rest).
    if (!this.#running) return;
    const attemptedAt = clock.now();
    const result = await sender.send(signedRequest(claimed, signingTime(attemptedAt, this.#faults)));
    // Sends that outlived stop()'s grace were released: their outcome must not be recorded.
    if (!this.#inFlight.has(claimed.delivery.id)) return;
    const timing = {
      attemptedAt,
      finishedAt: clock.now(),
      claimToken: this.#options.soleOwner ? null : this.#claimToken,
    };
    const outcome = outcomeOf(claimed, result, timing, this.#retryDelays);
    const applied = await this.#settler.settle(outcome);
    if (!result.delivered && applied) {
      log.info(
        {
          deliveryId: claimed.delivery.id,
          webhookId: claimed.delivery.webhookId,
          eventId: claimed.delivery.eventId,
          statusCode: result.statusCode,
          error: result.error,
          durationMs: result.durationMs,
          nextAttemptAt: outcome.nextAttemptAt,
          status: outcome.status,
        },
        'webhook delivery attempt failed',
      );
    }
    if (outcome.nextAttemptAt !== null) this.#wakeAt(Date.parse(outcome.nextAttemptAt));
  }

  /** Keeps one timer, for the earliest retry this process knows of, so retries go out on time between polls. */
  #wakeAt(dueAt: number): void {
    if (!this.#running) return;
    const index = this.#dueTimes.findIndex((time) => time > dueAt);
    this.#dueTimes.splice(index === -1 ? this.#dueTimes.length : index, 0, dueAt);
    if (dueAt < this.#timerAt) this.#armTimer();
  }

  #armTimer(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    this.#timerAt = this.#dueTimes[0] ?? Number.POSITIVE_INFINITY;
    if (this.#timerAt === Number.POSITIVE_INFINITY || !this.#running) return;
    // One wall-clock millisecond late rather than early: a timer rounded down would find nothing due yet.
    const delay = this.#timerAt - this.#options.clock.now() + this.#options.clock.scale;
    this.#cancelTimer = this.#options.clock.schedule(() => {
      const now = this.#options.clock.now();
      while ((this.#dueTimes[0] ?? Number.POSITIVE_INFINITY) <= now) this.#dueTimes.shift();
      this.#retryDue = true;
      this.wake();
      this.#armTimer();
    }, delay);
  }

  /** Waits `milliseconds`, or less when woken meanwhile (or since the last pause). */
  #pause(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = null;
        this.#woken = false;
        resolve();
      };
      const timer = setTimeout(done, this.#woken ? 0 : milliseconds);
      this.#wake = done;
    });
  }
}

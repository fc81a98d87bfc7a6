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
import type { AttemptResult, Sender } from './sender.js';
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
  /** How long an outcome waits for others to share its write (Settler), in wall-clock milliseconds. */
  settleGatherMs?: number;
  /** How long stop() lets sends in flight finish before releasing their leases, in wall-clock milliseconds. */
  stopGraceMs?: number;
  /** Test-only faults (reference/faults.ts); none by default. */
  faults?: DeliveryFaults | undefined;
}

type Tuning = Required<Omit<DispatcherOptions, 'store' | 'clock' | 'sender' | 'log' | 'faults'>>;

/** PostgreSQL (several nodes): a lease per send, cheap claims off this thread, a slow poll for other nodes' rows. */
const leasingDefaults: Tuning = {
  maxInFlight: 256,
  perWebhook: 16,
  soleOwner: false,
  claimRounds: 4,
  batchSize: 100,
  // A safety net: rows this node wrote signal, the next due time is read after each claim that emptied what was due
  // (nextDue), so the poll is left for other nodes' new rows and leases of a dead node running out.
  idlePollMs: 1000,
  settleGatherMs: 40,
  stopGraceMs: 2000,
};

/**
 * The embedded store: every claim is a PGlite query (on the database thread, ADR 0030) with a cost of its own besides
 * its rows, during which PGlite's one connection serves nobody else, so claim
 * big batches (up to 32 rounds of one webhook, sent 16 at a time through the gate) and rarely; new rows and replays
 * signal (OutboxSignal), so the poll is only a safety net. Four webhooks whose receivers hang fill the 2048 slots,
 * as four filled 256 before (ADR 0018).
 */
const soleOwnerDefaults: Tuning = {
  ...leasingDefaults,
  soleOwner: true,
  maxInFlight: 2048,
  claimRounds: 32,
  batchSize: 512,
  idlePollMs: 1000,
  // A write has a fixed cost (planning, flushing pages) of about a third of a 50-row write: at 1000 deliveries/s 40 ms
  // gathered ~55 rows per write, 100 ms ~150 (ADR 0030). A 2xx not yet written at a SIGKILL is sent again: at most
  // 100 ms more of them; slots are plenty (2048).
  settleGatherMs: 100,
};

/** The least time between two claims of the embedded store, in wall-clock ms, unless a retry fell due. */
const soleOwnerClaimGapMs = 50;

/** One attempt made: when (service clock) and how it went. */
interface Sent {
  attemptedAt: number;
  finishedAt: number;
  result: AttemptResult;
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
  readonly #options: Tuning & Pick<DispatcherOptions, 'store' | 'clock' | 'sender' | 'log'>;
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
  /** New deliveries or a replay were signalled, or the poll ran out: worth a claim even for a few free slots. */
  #newWork = true;
  /** Sends ended since the last claim: with the embedded store, a claim waits until half a batch has ended. */
  #endedSinceClaim = 0;
  #cancelTimer: (() => void) | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  /** Due times (service clock) of the retries this process scheduled, earliest first. */
  readonly #dueTimes: number[] = [];
  readonly #retryDelays: readonly number[];

  constructor(options: DispatcherOptions) {
    this.#options = { ...(options.soleOwner ? soleOwnerDefaults : leasingDefaults), ...options };
    this.#settler = new Settler(options.store, this.#options.settleGatherMs);
    this.#gate = new SendGate(this.#options.perWebhook);
    this.#faults = options.faults;
    this.#retryDelays = faultyRetryDelays(apiPolicies.webhookDelivery.retryDelaysSeconds, options.faults);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Looks for due deliveries now rather than at the next poll: new ones were recorded, or one was replayed. */
  wake(): void {
    this.#newWork = true;
    this.#nudge();
  }

  /** Ends the loop's pause, to decide again whether to claim. */
  #nudge(): void {
    this.#woken = true;
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#nudge();
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
    // The poll runs on its own deadline: sends ending keep interrupting the pause, and must not postpone it.
    let pollAt = 0;
    let claimedAt = Number.NEGATIVE_INFINITY;
    while (this.#running) {
      if (Date.now() >= pollAt) this.#newWork = true;
      const free = this.#options.maxInFlight - this.#inFlight.size;
      const wanted = this.#worthClaiming(free) ? Math.min(free, this.#options.batchSize) : 0;
      // Embedded store: a claim costs tens of ms however few rows it finds, and events recorded one by one would
      // each start one, leaving PGlite no time to record or settle. Due retries do not wait.
      const gap = claimedAt + soleOwnerClaimGapMs - Date.now();
      if (wanted > 0 && this.#options.soleOwner && !this.#retryDue && gap > 0) {
        await this.#pause(gap);
        continue;
      }
      if (wanted > 0) {
        claimedAt = Date.now();
        this.#retryDue = false;
        this.#newWork = false;
        this.#endedSinceClaim = 0;
        pollAt = Date.now() + this.#options.idlePollMs;
      }
      let claimed: ClaimedDelivery[] = [];
      if (wanted > 0) {
        try {
          claimed = await this.#claim(wanted);
        } catch (error) {
          this.#options.log.info({ error: String(error) }, 'webhook delivery: claiming failed');
        }
      }
      for (const delivery of claimed) this.#send(delivery);
      // A full batch means more may be due: claim again at once, as long as there are free slots. Otherwise everything
      // due is claimed: wake when the next pending delivery falls due (a retry written before a restart or by another
      // node), not at a poll.
      if (claimed.length === wanted && wanted > 0) this.#newWork = true;
      else if (wanted > 0) await this.#wakeAtNextDue();
      // Only after a claim: with every slot taken (nothing wanted) this would spin without yielding.
      if (!this.#running || (this.#newWork && wanted > 0)) continue;
      const untilPoll = pollAt - Date.now();
      await this.#pause(untilPoll > 0 ? untilPoll : this.#options.idlePollMs);
    }
  }

  /**
   * Claim in batches, not for every freed slot: each claim is a query. With PostgreSQL, whenever half a batch of
   * slots is free. With the embedded store (each claim a PGlite query on this thread, whatever its size), only when
   * something new may be due (signalled rows, a retry of ours, the poll) or half a batch of sends has ended since
   * the last claim: the slots of a webhook at its cap are free, yet a claim would find nothing for them.
   */
  #worthClaiming(free: number): boolean {
    const half = this.#options.batchSize / 2;
    if (free <= 0) return false;
    if (this.#inFlight.size === 0 || this.#retryDue) return true;
    if (!this.#options.soleOwner) return free >= half;
    return this.#newWork || this.#endedSinceClaim >= half;
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
    // A due retry goes ahead of its webhook's queue: the schedule is a promise, a first attempt's time is not.
    const retry = claimed.delivery.attempts.length > 0;
    let sent: Sent | null = null;
    // The gate holds a connection slot for the request only; the delivery stays held (left out of claims, or
    // leased) until its outcome is written, which shares a batched write with others.
    void this.#gate
      .run(
        webhookId,
        async () => {
          sent = await this.#transmit(claimed);
        },
        retry,
      )
      .then(() => (sent === null ? undefined : this.#record(claimed, sent)))
      .finally(() => {
        this.#inFlight.delete(id);
        const left = (this.#perWebhook.get(webhookId) ?? 1) - 1;
        if (left === 0) this.#perWebhook.delete(webhookId);
        else this.#perWebhook.set(webhookId, left);
        this.#endedSinceClaim += 1;
        this.#nudge();
      });
  }

  /** Sends one attempt; null when it waited at the gate past stop() (left unsent, released with the rest). */
  async #transmit(claimed: ClaimedDelivery): Promise<Sent | null> {
    const { clock, sender } = this.#options;
    if (!this.#running) return null;
    const attemptedAt = clock.now();
    const result = await sender.send(signedRequest(claimed, signingTime(attemptedAt, this.#faults)));
    return { attemptedAt, finishedAt: clock.now(), result };
  }

  async #record(claimed: ClaimedDelivery, sent: Sent): Promise<void> {
    const { result } = sent;
    // Sends that outlived stop()'s grace were released: their outcome must not be recorded.
    if (!this.#inFlight.has(claimed.delivery.id)) return;
    const claimToken = this.#options.soleOwner ? null : this.#claimToken;
    const timing = { attemptedAt: sent.attemptedAt, finishedAt: sent.finishedAt, claimToken };
    const outcome = outcomeOf(claimed, result, timing, this.#retryDelays);
    const applied = await this.#settler.settle(outcome);
    if (!result.delivered && applied) {
      this.#options.log.info(
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

  async #wakeAtNextDue(): Promise<void> {
    try {
      const next = await this.#options.store.deliveries.nextDue(
        new Date(this.#options.clock.now()).toISOString(),
      );
      if (next !== null) this.#wakeAt(Date.parse(next));
    } catch (error) {
      this.#options.log.info({ error: String(error) }, 'webhook delivery: reading the next due time failed');
    }
  }

  /** Keeps one timer, for the earliest due time this process knows of, so retries go out on time between polls. */
  #wakeAt(dueAt: number): void {
    if (!this.#running) return;
    const index = this.#dueTimes.findIndex((time) => time >= dueAt);
    if (this.#dueTimes[index] === dueAt) return;
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
      this.#nudge();
      this.#armTimer();
    }, delay);
  }

  /** Waits `milliseconds`, or less when nudged meanwhile (or since the last pause). */
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

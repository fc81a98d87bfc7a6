import { channelFacts } from '../../generated/types/facts.js';

const rateWindow = channelFacts.deviceTelemetry.ingestRules.rateWindow;

/**
 * How far ahead of its rate a driver may send when it catches up, so that it behaves as a compliant device: a bucket
 * of the device's share of the spec's rate window (burstSeconds minus the part kept for pauses of the service,
 * stallAllowanceSeconds), refilled at exactly the rate. A driver that fell behind by more than that stays behind
 * (and counts its messages late) instead of bursting into the target's rate window, so what the target drops is the
 * target's loss, not the driver's.
 */
export class SendBudget {
  readonly capacity: number;
  #tokens: number;
  #updatedAt: number;

  constructor(
    private readonly ratePerSecond: number,
    now: number,
  ) {
    const deviceShareSeconds = rateWindow.burstSeconds - rateWindow.stallAllowanceSeconds;
    this.capacity = Math.max(1, Math.floor(ratePerSecond * deviceShareSeconds));
    this.#tokens = this.capacity;
    this.#updatedAt = now;
  }

  /** Whole messages that may go out at `now` (milliseconds). */
  available(now: number): number {
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.capacity, this.#tokens + (elapsed * this.ratePerSecond) / 1000);
    this.#updatedAt = now;
    return Math.floor(this.#tokens);
  }

  spend(count: number): void {
    this.#tokens -= count;
  }
}

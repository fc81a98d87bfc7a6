import type { DeviceErrorCode } from '../../generated/types/schemas.js';
import type { FanoutBus } from '../fanout/fanout-bus.js';
import type { IngestFaults } from '../faults.js';
import { decodeSample } from './decode-sample.js';
import type { DeviceErrorReporter } from './device-error-reporter.js';
import { publishTarget } from './ingest-faults.js';
import { ingestLimits, sampleRateOf } from './ingest-rules.js';
import type { PublishOutcome } from './mqtt-codes.js';
import type { OverloadGuard } from './overload-guard.js';
import type { LiveSession } from './stream-sessions.js';
import { rateBucket, type TokenBucket } from './token-bucket.js';

const overloadReason = 'The service is overloaded and shed the message; send it again later.';

/**
 * What happens to each PUBLISH of one live device, cheapest check first: the topic, overload of the service, the
 * size, the rate window, then decoding and validation. An accepted sample goes to the fan-out bus; a dropped one
 * raises device.error (bounded per second by the reporter). Nothing here closes the connection: one bad message costs only itself.
 */
export class StreamIngest {
  readonly #bucket: TokenBucket;
  readonly #rate: number;

  constructor(
    readonly session: LiveSession,
    private readonly bus: FanoutBus,
    private readonly errors: DeviceErrorReporter,
    private readonly overload: Pick<OverloadGuard, 'overloaded' | 'counts'>,
    private readonly wallNow: () => number = Date.now,
    private readonly faults: IngestFaults = {},
  ) {
    this.#rate = sampleRateOf(session.quality);
    this.#bucket = rateBucket(this.#rate, wallNow());
  }

  /** `payload` is null for a message too large to have been buffered; `payloadBytes` is its size either way. */
  handle(topic: string, payload: Buffer | null, payloadBytes: number): PublishOutcome {
    const streamId = publishTarget(topic, this.session.streamId, this.faults);
    if (streamId === null) return 'otherTopic';
    // Before the rate window: a shed message takes no token, so the device is not also over its rate afterwards.
    if (this.overload.overloaded) {
      this.overload.counts.shedMessages += 1;
      return this.#drop('service_overloaded', overloadReason);
    }
    if (payload === null || payloadBytes > ingestLimits.maxMessageBytes) {
      const reason = `The message has ${payloadBytes} bytes; the largest accepted is ${ingestLimits.maxMessageBytes}.`;
      return this.#drop('message_too_large', reason);
    }
    const receivedAt = this.wallNow();
    if (!this.#bucket.take(receivedAt)) {
      const reason = `Messages arrive faster than quality ${this.session.quality} allows: ${this.#rate} per second, bursts of ${this.#bucket.capacity}.`;
      return this.#drop('rate_exceeded', reason);
    }
    const decoded = decodeSample(this.session.format, payload);
    if (!decoded.ok) return this.#drop('format_mismatch', `The payload is ${decoded.reason}`);
    this.bus.publish({
      type: 'telemetry',
      streamId,
      receivedAt,
      sample: decoded.sample,
    });
    return 'accepted';
  }

  #drop(code: DeviceErrorCode, reason: string): PublishOutcome {
    this.errors.report(this.session, code, reason);
    return code;
  }
}

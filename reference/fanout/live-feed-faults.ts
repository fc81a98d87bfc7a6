import type { LiveFeedFaults } from '../faults.js';
import { closeCodes } from './live-feed-rules.js';
import type { StreamAudience } from './stream-audience.js';

/** Under the fault, a subscriber dropped as too slow takes every other subscriber of its stream with it. */
export function afterSubscriberEnded(
  audience: StreamAudience,
  code: number,
  faults: LiveFeedFaults | undefined,
) {
  if (faults?.slowConsumerClosesAll === true && code === closeCodes.subscriberTooSlow)
    audience.closeAll('subscriberTooSlow');
}

// The live feed's audience, black-box: a crowd joining at once is told its count in coalesced status messages
// (x-connection-rules subscriberCountMessages), and every subscriber ends at the true count.
import { describe } from 'vitest';
import { channelFacts } from '../../generated/types/facts.js';
import { check, expectWith } from '../harness/check.js';
import { isRefusal, type Subscriber, subscribe } from '../harness/ws-subscriber.js';
import {
  createStream,
  deleteStream,
  liveUrl,
  sleep,
  statusCountsOf,
  subscriberToken,
  subscribeTo,
  waitUntil,
} from './support/data-plane.js';

const { coalesceMilliseconds } = channelFacts.liveFeed.connectionRules.subscriberCountMessages;
const crowdSize = 20;

describe('live feed audience', () => {
  check(
    [
      'RULE-CONNECTION-SUBSCRIBER-COUNT-MESSAGES-RULE',
      'RULE-CONNECTION-SUBSCRIBER-COUNT-MESSAGES-COALESCE-MILLISECONDS',
    ],
    `a crowd of ${crowdSize} joining at once: one status message per ${coalesceMilliseconds} ms at most, not one per newcomer, and every subscriber ends at the true count`,
    async (context) => {
      const stream = await createStream();
      const first = await subscribeTo(stream);
      const alone = await waitUntil(() => statusCountsOf(first).at(-1) === 1, 5000);
      expectWith(alone, 'the first subscriber told subscriberCount 1', statusCountsOf(first));
      // Tokens first, so the crowd's upgrades arrive together; then a quiet window, so none is open.
      const tokens = await Promise.all(Array.from({ length: crowdSize }, () => subscriberToken(stream)));
      await sleep(coalesceMilliseconds * 2);
      const before = statusCountsOf(first).length;
      const started = Date.now();
      const answers = await Promise.all(tokens.map((token) => subscribe(liveUrl(stream, token))));
      const crowd = answers.filter((answer): answer is Subscriber => !isRefusal(answer));
      const everyone = [first, ...crowd];
      const total = everyone.length;
      const settled = await waitUntil(
        () => everyone.every((each) => statusCountsOf(each).at(-1) === total),
        10_000,
      );
      const elapsed = Date.now() - started;
      const during = statusCountsOf(first).slice(before);
      context.evidence('status counts the first subscriber received while the crowd joined', {
        counts: during,
        elapsedMilliseconds: elapsed,
      });
      await Promise.all(everyone.map((each) => each.close()));
      await deleteStream(stream);
      expectWith(crowd.length === crowdSize, `all ${crowdSize} upgrades accepted`, {
        refused: answers.filter(isRefusal),
      });
      expectWith(settled, `every subscriber's last status message says ${total}`, {
        last: everyone.map((each) => statusCountsOf(each).at(-1)),
      });
      // At most one message opens each window and one closes it; one per newcomer means no coalescing.
      const allowed = Math.ceil(elapsed / coalesceMilliseconds) + 1;
      expectWith(
        during.length <= allowed && during.length < crowdSize,
        `at most ${Math.min(allowed, crowdSize - 1)} status messages for ${crowdSize} newcomers in ${elapsed} ms`,
        during,
      );
    },
    { timeout: 60_000 },
  );
});

// The target's clock seen from outside: timestamps the API returns advance at the stated time scale (x-time-scale),
// and an API key outlives the longest-lived token once hours of the target's time have passed (x-lifetime). On the
// embedded default both run on the fast-clock twin; against a deployment on its own clock at --time-scale.
import { describe } from 'vitest';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import { type CheckContext, check, expectWith } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { clockWaitOrSkip, sleep } from './support/data-plane.js';

/** A measured share may differ from the scale by this much (timer and rounding of the target's timestamps). */
const relativeTolerance = 0.05;

function clock(): { server: 'fast' | 'api'; scale: number } {
  const target = currentTarget();
  return target.fastClock === null
    ? { server: 'api', scale: target.timeScale }
    : { server: 'fast', scale: target.fastClock.timeScale };
}

interface Stamped {
  exchange: Exchange;
  createdAt: number;
  /** Wall-clock time just before the request and just after its answer. */
  sentAt: number;
  answeredAt: number;
}

async function createReportStamped(title: string): Promise<Stamped> {
  const sentAt = Date.now();
  const exchange = await send('POST', '/reports', { body: { title }, server: clock().server });
  const answeredAt = Date.now();
  expectWith(exchange.response.status === 201, 'status 201 for POST /reports', exchange);
  const createdAt = Date.parse(String((exchange.response.body as { createdAt?: unknown }).createdAt));
  expectWith(!Number.isNaN(createdAt), 'a createdAt timestamp', exchange);
  return { exchange, createdAt, sentAt, answeredAt };
}

/** Two reports `gapMs` of wall time apart: their createdAt values and the wall-clock bounds of the gap between them. */
async function stampsApart(context: CheckContext, gapMs: number) {
  const first = await createReportStamped('Conformance clock first');
  await sleep(gapMs);
  const second = await createReportStamped('Conformance clock second');
  context.evidence('answers', [first.exchange, second.exchange]);
  return {
    targetGapMs: second.createdAt - first.createdAt,
    shortestWallMs: second.sentAt - first.answeredAt,
    longestWallMs: second.answeredAt - first.sentAt,
  };
}

describe('the target clock', () => {
  check(
    ['INF-OPENAPI-X-TIME-SCALE'],
    "timestamps the API returns advance at the target's time scale: two objects created apart show the wall gap times the scale",
    async (context) => {
      const { scale } = clock();
      const measured = await stampsApart(context, 1000);
      const lowest = measured.shortestWallMs * scale * (1 - relativeTolerance) - 1000;
      const highest = measured.longestWallMs * scale * (1 + relativeTolerance) + 1000;
      context.evidence('gap', { scale, ...measured, accepted: [lowest, highest] });
      expectWith(
        measured.targetGapMs >= lowest && measured.targetGapMs <= highest,
        `a createdAt gap of the wall gap × ${scale} (±${relativeTolerance * 100}% and 1 s of rounding)`,
        { scale, ...measured },
      );
    },
  );

  check(
    ['INF-OPENAPI-COMPONENTS-SECURITYSCHEMES-APIKEY-X-LIFETIME'],
    'an API key still authenticates after twice the access-token lifetime has passed on the target clock',
    async (context) => {
      const { scale } = clock();
      const outlived = securitySchemeFacts.OAuth2.tokenLifetimes.accessTokenSeconds * 2;
      const waitMs = clockWaitOrSkip(context, outlived, scale);
      const measured = await stampsApart(context, waitMs);
      context.evidence('target time passed', measured);
      expectWith(
        measured.targetGapMs >= outlived * 1000 * (1 - relativeTolerance),
        `at least ${outlived} s passed on the target's clock`,
        measured,
      );
      const after = await send('GET', '/account', { server: clock().server });
      context.evidence('the key afterwards', after);
      expectWith(after.response.status === 200, 'status 200 with the same key', after);
    },
  );
});

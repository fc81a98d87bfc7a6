import type { AccessTokens } from '../auth/access-tokens.js';
import type { Clock } from '../clock.js';
import type { TargetPolicy } from '../delivery/target-address.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { FeedVersions } from '../services/feed-versions.js';
import type { StreamLifecycle } from '../services/stream-lifecycle.js';
import type { ServiceUrls } from '../services/urls.js';
import type { Store } from '../storage/store.js';
import type { AddressLimit } from './address-limit.js';

/** Everything the HTTP layer of the reference service runs on; built once by `start()` or a test. */
export interface ServiceDependencies {
  store: Store;
  clock: Clock;
  urls: ServiceUrls;
  /** Signs access tokens and subscriber tokens. */
  signingKey: Uint8Array;
  accessTokens: AccessTokens;
  /** The credential windows (x-rate-limit): in process, or shared by every node. */
  rateLimiter: RateLimiter;
  /** Requests without a valid credential, and public feeds, per client address (x-rate-limit.perAddress). */
  addressLimit: AddressLimit;
  /** Local testing only: GET /oauth/authorize grants at once, for `login_hint` or the client's own account. */
  autoApproveConsent: boolean;
  /** Hears of stream deletions (the fan-out closes their subscribers); none in tests of the REST layer alone. */
  streamLifecycle?: StreamLifecycle;
  /** Which addresses webhooks may point at (checked at creation; the dispatcher checks again at every connection). */
  webhookTargets: TargetPolicy;
  /** With several nodes, the shared versions report feeds are cached under (ADR 0023); none in one process. */
  feedVersions?: FeedVersions | undefined;
}

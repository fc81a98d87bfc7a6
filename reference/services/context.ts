import type { Clock } from '../clock.js';
import type { Store } from '../storage/store.js';
import type { ServiceUrls } from './urls.js';

/** What every service function needs: storage, time, the public URLs, and the account the caller acts for. */
export interface ServiceContext {
  store: Store;
  clock: Clock;
  urls: ServiceUrls;
  accountId: string;
  /** Signs subscriber tokens and other service-issued values. */
  signingKey: Uint8Array;
}

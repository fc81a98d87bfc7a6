import type {
  AccountRow,
  ApiKeyRow,
  AuthorizationCodeRow,
  ClaimedDelivery,
  ClockAnchor,
  DeliveryOutcome,
  DeliveryRow,
  EventRow,
  KeyWithAccount,
  OAuthClientRow,
  PublishedRecordRow,
  RecordRow,
  RefreshTokenRow,
  ReportRow,
  StreamRow,
  WebhookRow,
} from './rows.js';

/**
 * A page request, newest first in insertion order (not by timestamp: the service runs on a scaled clock). `after`
 * asks for the items older than the cursor item, `before` for the items newer than it (still newest first, the ones
 * nearest the cursor); with both, the items between the two.
 */
export interface PageRequest {
  limit: number;
  after?: string;
  before?: string;
}

/** A page's limit, or a RangeError: every store refuses a page without a whole, positive limit alike. */
export function pageLimit(page: PageRequest): number {
  if (!Number.isInteger(page.limit) || page.limit < 1)
    throw new RangeError(`a page needs a whole, positive limit, not ${page.limit}`);
  return page.limit;
}

/** A page: items newest first, whether more exist in the direction paged, or `null` when the cursor names nothing. */
export interface Page<Row> {
  items: Row[];
  hasMore: boolean;
}

/** An owned resource table: every read and write is scoped to one account, so another account's id is simply absent. */
export interface ResourceTable<
  Row extends { id: string; accountId: string },
  Filter = Record<string, never>,
> {
  insert(row: Row): Promise<Row>;
  get(accountId: string, id: string): Promise<Row | null>;
  /**
   * `null` when `after`/`before` is not the id of an item of this list: of this account and, for records and
   * deliveries, of the same report or webhook. Other filters (`status`) narrow the items but not the cursor, so a
   * cursor stays valid when its item's status changed between two pages.
   */
  list(accountId: string, page: PageRequest, filter?: Filter): Promise<Page<Row> | null>;
  /** Sets the fields given (undefined ones are left alone); `null` when this account has no row with that id. */
  update(accountId: string, id: string, changes: Partial<Omit<Row, 'id' | 'accountId'>>): Promise<Row | null>;
  delete(accountId: string, id: string): Promise<boolean>;
}

/** A list's status filter as the query gave it: undefined lists every status. */
export interface StatusFilter {
  status?: string | undefined;
}

/** What a dispatcher asks of `deliveries.claim`; times on the service clock. */
export interface ClaimRequest {
  now: string;
  /** Until when the claimed deliveries are leased; null when the caller is the store's only dispatcher (no lease). */
  leaseUntil: string | null;
  /** Without a lease: the deliveries the caller has in flight, left out of the claim. */
  held: readonly string[];
  limit: number;
  /** At most this many deliveries of one webhook in flight at once, counting `inFlightPerWebhook`. */
  perWebhook: number;
  /** Deliveries the caller already holds, per webhook id. */
  inFlightPerWebhook: ReadonlyMap<string, number>;
  /** Names the caller's leases: only its own outcomes are applied. */
  claimToken: string;
}

/**
 * The storage of the reference service. Two implementations pass the same contract tests: the embedded default
 * (PGlite, a database file in a data directory) and PostgreSQL. Every method is atomic; `transaction` groups several
 * so that a failure leaves nothing half-done.
 */
export interface Store {
  accounts: {
    insert(row: AccountRow): Promise<AccountRow>;
    get(id: string): Promise<AccountRow | null>;
    list(): Promise<AccountRow[]>;
  };
  apiKeys: {
    insert(row: ApiKeyRow): Promise<ApiKeyRow>;
    findByHash(hash: string): Promise<ApiKeyRow | null>;
    /**
     * The key with that hash and its account, in one read (every authenticated request needs both). A store that
     * holds them in memory answers without a promise, so an authenticated request waits for nothing (issue 16).
     */
    findWithAccount(hash: string): KeyWithAccount | null | Promise<KeyWithAccount | null>;
    get(id: string): Promise<ApiKeyRow | null>;
    listForAccount(accountId: string): Promise<ApiKeyRow[]>;
    revoke(id: string, revokedAt: string): Promise<ApiKeyRow | null>;
  };
  streams: ResourceTable<StreamRow, StatusFilter> & {
    /** Any account: the MQTT broker looks a stream up by its id alone. */
    getById(id: string): Promise<StreamRow | null>;
    /** idle → live with `startedAt`, atomically; `null` when the stream is absent or not idle (another node has it). */
    setLive(id: string, startedAt: string): Promise<StreamRow | null>;
    /** live → idle, `startedAt` cleared; `null` when the stream is absent or not live. */
    setIdle(id: string): Promise<StreamRow | null>;
    /** Every live stream of any account (a starting service idles what a crash left live). */
    listLive(): Promise<StreamRow[]>;
    /** Sets every stream's subscriberCount to 0 (a starting service: no subscriber outlives its connection). */
    resetSubscriberCounts(): Promise<number>;
  };
  /** `recordCount` is counted on read, never stored. Deleting a report deletes its records. */
  reports: ResourceTable<Omit<ReportRow, 'recordCount'> & { recordCount?: number }, StatusFilter> & {
    /** Any account: a report's feed is public at its reportUrl. */
    getById(id: string): Promise<(Omit<ReportRow, 'recordCount'> & { recordCount?: number }) | null>;
  };
  records: ResourceTable<RecordRow, { reportId: string }> & {
    /**
     * Appends samples to a draft record in one write; the record's new sample count, or null when there is no such
     * draft (none, or published: a published record is fixed).
     */
    appendSamples(accountId: string, id: string, samples: readonly unknown[]): Promise<number | null>;
    /** The newest `limit` published records of a report by publishedAt (ties: newest created), without samples (the feed). */
    publishedWindow(accountId: string, reportId: string, limit: number): Promise<PublishedRecordRow[]>;
  };
  /** Deleting a webhook deletes its deliveries, so none is retried towards it. */
  webhooks: ResourceTable<WebhookRow> & {
    /** Active webhooks of an account subscribed to an event type. */
    subscribedTo(accountId: string, eventType: string): Promise<WebhookRow[]>;
    count(accountId: string): Promise<number>;
  };
  events: {
    insert(row: EventRow): Promise<EventRow>;
    get(accountId: string, id: string): Promise<EventRow | null>;
  };
  deliveries: ResourceTable<DeliveryRow, { webhookId: string }> & {
    /** Pending deliveries whose next attempt is due at or before `now` (any account), oldest first. */
    due(now: string, limit: number): Promise<DeliveryRow[]>;
    /** Leases due deliveries (see ClaimRequest), oldest first, safely against other nodes claiming at once. */
    claim(request: ClaimRequest): Promise<ClaimedDelivery[]>;
    /**
     * The earliest next attempt after `after` of any pending delivery (any account), or null: when a dispatcher that
     * has claimed everything due should look again, rather than polling (retries written before a restart, or by
     * another node).
     */
    nextDue(after: string): Promise<string | null>;
    /**
     * Records attempts and ends their leases, each only while its claim token still holds the lease (a lease that ran
     * out and was claimed again is not overwritten). Returns the ids applied.
     */
    settle(outcomes: readonly DeliveryOutcome[]): Promise<string[]>;
    /** Ends leases without an attempt: those of `claimToken` (any when null), of `ids` (all when null). */
    release(claimToken: string | null, ids: readonly string[] | null): Promise<void>;
    /** Back to pending, due at `at`, with the whole retry schedule ahead again; null when no such delivery. */
    requeue(accountId: string, webhookId: string, id: string, at: string): Promise<DeliveryRow | null>;
  };
  /** Where the service clock stands, so that it keeps running across restarts. */
  serviceClock: {
    read(): Promise<ClockAnchor | null>;
    write(anchor: ClockAnchor): Promise<void>;
  };
  oauthClients: {
    insert(row: OAuthClientRow): Promise<OAuthClientRow>;
    get(id: string): Promise<OAuthClientRow | null>;
  };
  authorizationCodes: {
    insert(row: AuthorizationCodeRow): Promise<AuthorizationCodeRow>;
    /** Marks the code used and returns it, or null when unknown or already used (single use, atomically). */
    consume(codeHash: string, usedAt: string): Promise<AuthorizationCodeRow | null>;
  };
  refreshTokens: {
    insert(row: RefreshTokenRow): Promise<RefreshTokenRow>;
    get(tokenHash: string): Promise<RefreshTokenRow | null>;
    /** Marks an unused, unrevoked token used; returns false when it was already used or revoked. */
    markUsed(tokenHash: string, usedAt: string): Promise<boolean>;
    revokeFamily(familyId: string, revokedAt: string): Promise<void>;
  };
  /**
   * Runs `work` so that either all of its writes happen or none do. `work` must use the Store it receives (the outer
   * one waits for the transaction to end); its `transaction` reuses the same transaction instead of nesting one.
   */
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

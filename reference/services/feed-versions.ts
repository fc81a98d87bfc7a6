/**
 * A version of each account's feeds that every node reads (ADR 0023): a node changing a report or record replaces it
 * once the change is committed and before answering, and a node trusts a cached feed only while the version it was
 * rendered under is still current. One process needs none: its feed cache sees every write itself.
 */
export interface FeedVersions {
  /** The account's current version; null when it cannot be read (nothing cached is trusted then). */
  read(accountId: string): Promise<string | null>;
  /** Gives each account a new version; resolves once every node would read it. */
  replace(accountIds: readonly string[]): Promise<void>;
}

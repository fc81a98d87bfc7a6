import type { SqlExecutor } from './sql-executor.js';
import type { Store } from './store.js';
import { accountsTable, apiKeysTable } from './tables/accounts.js';
import { deliveriesTable } from './tables/deliveries.js';
import { eventsTable } from './tables/events.js';
import { authorizationCodesTable, oauthClientsTable, refreshTokensTable } from './tables/oauth.js';
import { recordsTable, reportsTable } from './tables/reports.js';
import { serviceClockTable } from './tables/service-clock.js';
import { streamsTable } from './tables/streams.js';
import { webhooksTable } from './tables/webhooks.js';

/**
 * The Store over any SQL executor (PGlite or PostgreSQL). Inside `transaction`, work receives a Store bound to the
 * transaction; its own `transaction` runs the work in that same transaction rather than nesting one, so a failure
 * anywhere rolls back everything. Work must use the Store it receives: on PGlite, the outer Store waits for the
 * transaction to end, so awaiting it from inside never returns.
 */
export function createSqlStore(executor: SqlExecutor): Store {
  const store: Store = {
    accounts: accountsTable(executor),
    apiKeys: apiKeysTable(executor),
    streams: streamsTable(executor),
    reports: reportsTable(executor),
    records: recordsTable(executor),
    webhooks: webhooksTable(executor),
    events: eventsTable(executor),
    deliveries: deliveriesTable(executor),
    serviceClock: serviceClockTable(executor),
    oauthClients: oauthClientsTable(executor),
    authorizationCodes: authorizationCodesTable(executor),
    refreshTokens: refreshTokensTable(executor),
    // A transaction's executor hands itself to nested work, which then gets this same Store back.
    transaction: (work) =>
      executor.transaction((transaction) =>
        work(transaction === executor ? store : createSqlStore(transaction)),
      ),
    close: () => executor.close(),
  };
  return store;
}

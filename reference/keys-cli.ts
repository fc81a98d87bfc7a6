// npm run keys -- <command> [options]: accounts, API keys and OAuth clients of a reference service's data.
//   accounts create --plan <plan> [--region <region>]     accounts list
//   keys create --account <id> --kind <secret|publishable> keys list --account <id>
//   keys roll --key <key id>                               keys revoke --key <key id>
//   clients create --account <id> --name <name> --redirect-uri <uri> [--redirect-uri <uri> ...]
// The data directory and database come from the same config file and TELEMETRY_* variables as `npm start`.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { accountPlanMembers } from '../generated/types/facts.js';
import { type ApiKeyKind, apiKeyKinds } from './auth/api-keys.js';
import { isoTime, systemClock } from './clock.js';
import { openChangeAnnouncer } from './cluster/change-announcer.js';
import { loadStartOptions } from './config.js';
import { ConfigError } from './config-error.js';
import { assertNotRunning } from './data-dir-lock.js';
import {
  createAccount,
  createApiKey,
  createOAuthClient,
  createPublicOAuthClient,
  localDefaultRegion,
  type Plan,
} from './seed.js';
import { cachedStore, newStoreCaches } from './storage/cached-store.js';
import { listenForKeyChanges } from './storage/key-change-listener.js';
import { openStore } from './storage/open-store.js';
import type { Store } from './storage/store.js';

type Options = {
  plan?: string;
  region?: string;
  account?: string;
  kind?: string;
  key?: string;
  name?: string;
  'redirect-uri'?: string[];
  public?: boolean;
};
const clock = systemClock();

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new ConfigError(`--${flag} is required`);
  return value;
}

function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T {
  const given = required(value, flag);
  if (!allowed.includes(given as T)) throw new ConfigError(`--${flag} must be one of ${allowed.join(', ')}`);
  return given as T;
}

const commands: Record<string, (store: Store, options: Options) => Promise<unknown>> = {
  'accounts create': (store, options) =>
    createAccount(
      store,
      clock,
      oneOf(options.plan, 'plan', Object.keys(accountPlanMembers) as Plan[]),
      options.region ?? localDefaultRegion,
    ),
  'accounts list': (store) => store.accounts.list(),
  'keys create': (store, options) =>
    createApiKey(
      store,
      clock,
      required(options.account, 'account'),
      oneOf<ApiKeyKind>(options.kind, 'kind', apiKeyKinds),
    ),
  'keys list': async (store, options) =>
    (await store.apiKeys.listForAccount(required(options.account, 'account'))).map(
      ({ hash: _hash, ...key }) => key,
    ),
  'keys revoke': async (store, options) => {
    const revoked = await store.apiKeys.revoke(required(options.key, 'key'), isoTime(clock));
    if (revoked === null) throw new ConfigError(`no key ${options.key}`);
    return { id: revoked.id, status: revoked.status, revokedAt: revoked.revokedAt };
  },
  // Rolling invalidates the old key at once (documented) and returns a new key of the same kind.
  'keys roll': (store, options) =>
    store.transaction(async (transaction) => {
      const old = await transaction.apiKeys.get(required(options.key, 'key'));
      if (old === null || old.status !== 'active') throw new ConfigError(`no active key ${options.key}`);
      await transaction.apiKeys.revoke(old.id, isoTime(clock));
      return {
        revoked: old.id,
        ...(await createApiKey(transaction, clock, old.accountId, old.kind as ApiKeyKind)),
      };
    }),
  'clients create': (store, options) =>
    (options.public ? createPublicOAuthClient : createOAuthClient)(
      store,
      clock,
      required(options.account, 'account'),
      required(options.name, 'name'),
      options['redirect-uri'] ?? [],
    ),
};

const usage = `npm run keys -- <command> [options]: accounts, API keys and OAuth clients of a reference service's data.
  accounts create --plan <plan> [--region <region>]
  accounts list
  keys create --account <id> --kind <secret|publishable>
  keys list --account <id>
  keys roll --key <key id>
  keys revoke --key <key id>
  clients create --account <id> --name <name> --redirect-uri <uri> [--redirect-uri <uri> ...] [--public]
--config <file> and the TELEMETRY_* variables choose the data, as for npm start; stop the service first when it
uses the embedded database. --public registers a client without a secret, which must use PKCE.`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      public: { type: 'boolean' },
      config: { type: 'string' },
      plan: { type: 'string' },
      region: { type: 'string' },
      account: { type: 'string' },
      kind: { type: 'string' },
      key: { type: 'string' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const command = commands[positionals.join(' ')];
  if (command === undefined)
    throw new ConfigError(
      `unknown command "${positionals.join(' ')}"; one of: ${Object.keys(commands).join(', ')} (--help explains them)`,
    );
  const options = loadStartOptions(values.config, process.env, process.cwd());
  if (options.postgresUrl === undefined) await assertNotRunning(options.dataDir);
  const opened = await openStore(
    options.postgresUrl === undefined
      ? { kind: 'embedded', dataDir: path.join(options.dataDir, 'database') }
      : { kind: 'postgres', connectionString: options.postgresUrl },
  );
  // On PostgreSQL every node hears the change from the database's trigger; the command answers once this process
  // heard it too (bounded wait, ADR 0022), so a running node has been sent it by then.
  const echoes =
    options.postgresUrl === undefined
      ? undefined
      : await listenForKeyChanges(options.postgresUrl, newStoreCaches(1));
  const witnessed = echoes === undefined ? opened : cachedStore(opened, echoes.caches, undefined, echoes);
  // Several nodes (ADR 0023): they hear of revoked and rolled keys through Redis.
  const announcer =
    options.redisUrl === undefined ? undefined : await openChangeAnnouncer(options.redisUrl, 'keys-cli');
  const store = announcer?.wrap(witnessed) ?? witnessed;
  try {
    console.log(JSON.stringify(await command(store, values), null, 2));
  } finally {
    await announcer?.close();
    await echoes?.close();
    await store.close();
  }
}

try {
  await main();
} catch (error) {
  const usage =
    error instanceof TypeError && String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
  if (!(error instanceof ConfigError) && !usage) throw error;
  console.error(`keys: ${(error as Error).message}`);
  process.exitCode = 1;
}

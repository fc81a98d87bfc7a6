// npm start [-- --config <file>]: runs the reference service until SIGINT or SIGTERM.
import { parseArgs } from 'node:util';
import { loadStartOptions } from './config.js';
import { ConfigError } from './config-error.js';
import type { SeededCredentials } from './seed.js';
import { start } from './start.js';

function printCredentials(seeded: SeededCredentials): void {
  console.log('\nFirst start: these credentials are shown once (only their digests are stored).');
  for (const [plan, account] of Object.entries(seeded.accounts)) {
    console.log(`  ${plan} account ${account.accountId}`);
    for (const [kind, key] of Object.entries(account.keys)) console.log(`    ${kind.padEnd(12)} ${key.key}`);
  }
  const client = seeded.oauthClient;
  console.log(
    `  OAuth client ${client.clientId} secret ${client.clientSecret} redirect ${client.redirectUris.join(' ')}`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { config: { type: 'string' } }, strict: true });
  const options = loadStartOptions(values.config, process.env, process.cwd());
  const service = await start(options);
  console.log(
    `REST API   ${service.urls.baseUrl}\nOAuth      ${service.urls.authUrl}\nMQTT       ${service.urls.mqttBroker}\nData       ${options.dataDir}`,
  );
  if (service.seeded !== null) printCredentials(service.seeded);
  const stop = async (signal: string) => {
    console.log(`\n${signal}: stopping`);
    await service.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

try {
  await main();
} catch (error) {
  if (
    !(error instanceof ConfigError) &&
    !(
      error instanceof TypeError && String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')
    )
  ) {
    throw error;
  }
  console.error(`start: ${error.message}`);
  process.exitCode = 1;
}

// npm start [-- --config <file>] [--node-id <name>]: runs the reference service until SIGINT or SIGTERM.
import { parseArgs } from 'node:util';
import { loadStartOptions } from './config.js';
import { ConfigError } from './config-error.js';
import type { SeededCredentials } from './seed.js';
import { liveFeedUrl } from './services/urls.js';
import { start } from './start.js';
import { startupWarnings } from './startup-warnings.js';

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
  const { values } = parseArgs({
    options: { config: { type: 'string' }, 'node-id': { type: 'string' } },
    strict: true,
  });
  const loaded = loadStartOptions(values.config, process.env, process.cwd());
  const options = values['node-id'] === undefined ? loaded : { ...loaded, nodeId: values['node-id'] };
  for (const warning of startupWarnings(options)) console.warn(warning);
  const service = await start(options);
  console.log(
    `REST API   ${service.urls.baseUrl}\nOAuth      ${service.urls.authUrl}\n` +
      `MQTT       ${service.urls.mqttBroker}\n` +
      `WebSocket  ${liveFeedUrl(service.urls, '{streamId}').replace(encodeURIComponent('{streamId}'), '{streamId}')}?token=<subscriber token>\n` +
      `Data       ${options.dataDir}` +
      (service.nodeId === null ? '' : `\nNode       ${service.nodeId} (one of several, on Redis)`),
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

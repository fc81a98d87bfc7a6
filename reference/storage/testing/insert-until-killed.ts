// Child process of the restart test: opens the embedded store in a data directory and inserts events one after the
// other, printing each id only once its insert has resolved. Whatever it printed was acknowledged, so it must still
// be there after the parent SIGKILLs this process at an arbitrary point.
// Usage: tsx insert-until-killed.ts <dataDir> <count>

import { openStore } from '../open-store.js';
import { eventRow, newAccount } from './fixtures.js';

const [dataDir, countText] = process.argv.slice(2);
if (dataDir === undefined || countText === undefined) {
  console.error('usage: insert-until-killed.ts <dataDir> <count>');
  process.exit(2);
}
const store = await openStore({ kind: 'embedded', dataDir });
const accountId = await newAccount(store);
process.stdout.write(`account ${accountId}\n`);
for (let index = 0; index < Number(countText); index++) {
  const event = await store.events.insert(eventRow(accountId));
  process.stdout.write(`event ${event.id}\n`);
}
await store.close();

// Child process of the recording SIGKILL test: opens the embedded store in a data directory, records one stream that
// receives a sample every millisecond or so, and prints `ack <samples>` after every batch whose write committed.
// Whatever it printed was acknowledged, so it must still be there after the parent SIGKILLs this process.
// Usage: tsx record-until-killed.ts <dataDir>

import { openStore } from '../../storage/open-store.js';
import { recordingFixture } from './recording-fixture.js';

const [dataDir] = process.argv.slice(2);
if (dataDir === undefined) {
  console.error('usage: record-until-killed.ts <dataDir>');
  process.exit(2);
}
const store = await openStore({ kind: 'embedded', dataDir });
const fixture = await recordingFixture(store);
const streamId = await fixture.newStream(fixture.reportId);
process.stdout.write(`account ${fixture.accountId} report ${fixture.reportId}\n`);
let acknowledged = 0;
const report = () => {
  while (fixture.acknowledged.length > 0) acknowledged += fixture.acknowledged.shift()?.samples ?? 0;
  process.stdout.write(`ack ${acknowledged}\n`);
};
let next = 0;
// Runs until killed.
setInterval(() => {
  fixture.publish(streamId, 5, next);
  next += 5;
  if (fixture.acknowledged.length > 0) report();
}, 5);

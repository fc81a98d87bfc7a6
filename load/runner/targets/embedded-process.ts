// The embedded reference in a child process of its own, so that its CPU and memory are not the runner's.
// IPC: → { type: 'started', urls, seeded } once listening; ← 'memory' → { type: 'memory', … };
// ← 'shedding' → { type: 'shedding', counts } (what ingest shed under overload); ← 'stop' → exit.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { start } from '../../../reference/index.js';

const extraSecretKeys = Number(process.env.LOAD_EMBEDDED_EXTRA_KEYS ?? '0');
const dataDir = await mkdtemp(path.join(tmpdir(), 'telemetry-load-'));
// No webhooks are configured by the runner; silence the delivery log so the progress lines stay readable.
const service = await start({ dataDir, seedExtras: { extraSecretKeys }, webhookLog: { info() {} } });

process.on('message', async (message: { type: string }) => {
  if (message.type === 'memory') {
    const usage = process.memoryUsage();
    process.send?.({ type: 'memory', rss: usage.rss, heapUsed: usage.heapUsed });
  } else if (message.type === 'shedding') {
    process.send?.({ type: 'shedding', counts: service.ingestShedding() });
  } else if (message.type === 'stop') {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
process.send?.({ type: 'started', urls: service.urls, seeded: service.seeded });

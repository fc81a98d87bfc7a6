// npx tsx bench/ingest-idle-connections.ts [count] — what connections that never send CONNECT cost the ingest server:
// its resident memory before and after `count` (default 10,000) of them, all held until the CONNECT deadline closes
// them. Measured once for ADR 0010; not part of npm run bench.
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { Receiver } from './dataplane/receiver.js';

const count = Number(process.argv[2] ?? 10_000);
const receiver = new Receiver(path.join(import.meta.dirname, 'dataplane/service-process.ts'));
const ready = await receiver.ask({ kind: 'prepare', streams: 0 }, 'ready');
const port = Number(new URL(ready.url).port);
await new Promise((resolve) => setTimeout(resolve, 2000));
const before = (await receiver.ask({ kind: 'report' }, 'report')).maxRssBytes;
const sockets: Socket[] = [];
let closed = 0;
const opened = Date.now();
for (let index = 0; index < count; index += 1) {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed += 1;
  });
  sockets.push(socket);
  if (index % 500 === 499) await new Promise((resolve) => setTimeout(resolve, 50));
}
await new Promise((resolve) => setTimeout(resolve, 3000));
const during = (await receiver.ask({ kind: 'report' }, 'report')).maxRssBytes;
while (closed < count && Date.now() - opened < 60_000)
  await new Promise((resolve) => setTimeout(resolve, 200));
const megabytes = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
console.log(
  `${count} connections without CONNECT: service RSS ${megabytes(before)} MB → ${megabytes(during)} MB (+${megabytes(during - before)} MB, ${((during - before) / count / 1024).toFixed(1)} KiB each); ${closed} closed by the deadline after ${((Date.now() - opened) / 1000).toFixed(1)} s`,
);
await receiver.stop();

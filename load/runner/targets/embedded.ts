import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { IngestShedding, SeededCredentials, ServiceUrls } from '../../../reference/index.js';

export interface EmbeddedReference {
  urls: ServiceUrls;
  seeded: SeededCredentials;
  memory(): Promise<{ rss: number; heapUsed: number }>;
  shedding(): Promise<IngestShedding>;
  stop(): Promise<void>;
}

type ChildMessage =
  | { type: 'started'; urls: ServiceUrls; seeded: SeededCredentials | null }
  | { type: 'memory'; rss: number; heapUsed: number }
  | { type: 'shedding'; counts: IngestShedding };

function nextMessage<Kind extends ChildMessage['type']>(
  child: ChildProcess,
  type: Kind,
): Promise<Extract<ChildMessage, { type: Kind }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<ChildMessage, { type: Kind }>);
    };
    const onExit = (code: number | null) => reject(new Error(`the embedded reference exited (code ${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Starts the reference in a child process on free ports with a fresh data directory and `extraSecretKeys` keys. */
export async function startEmbedded(extraSecretKeys: number): Promise<EmbeddedReference> {
  const child = fork(fileURLToPath(new URL('./embedded-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, LOAD_EMBEDDED_EXTRA_KEYS: String(extraSecretKeys) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const started = await nextMessage(child, 'started');
  if (started.seeded === null) throw new Error('the embedded reference did not seed credentials');
  return {
    urls: started.urls,
    seeded: started.seeded,
    async memory() {
      const reply = nextMessage(child, 'memory');
      child.send({ type: 'memory' });
      const { rss, heapUsed } = await reply;
      return { rss, heapUsed };
    },
    async shedding() {
      const reply = nextMessage(child, 'shedding');
      child.send({ type: 'shedding' });
      return (await reply).counts;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

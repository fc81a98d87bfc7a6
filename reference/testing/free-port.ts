import { createServer } from 'node:net';

/** A port that was free a moment ago on 127.0.0.1: listen on 0, read the port, close. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port was assigned');
  return address.port;
}

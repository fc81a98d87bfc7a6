import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freshLoopbackAddress } from './from-address.js';
import { startRoundRobinProxy } from './round-robin-proxy.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A node that answers each connection with the address it came from, then closes it. */
async function addressEcho(): Promise<number> {
  const server = net.createServer((socket) => socket.end(socket.remoteAddress ?? ''));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as net.AddressInfo).port;
}

function seenFrom(port: number, localAddress: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('the tests’ round-robin balancer', () => {
  it('hands connections to the nodes in turn, each from its loopback client’s own address', async () => {
    const proxy = await startRoundRobinProxy();
    closers.push(() => proxy.close());
    proxy.forwardTo([await addressEcho(), await addressEcho()]);
    const clients = [freshLoopbackAddress(), freshLoopbackAddress(), freshLoopbackAddress()];
    const seen = [];
    for (const client of clients) seen.push(await seenFrom(proxy.port, client));
    expect(seen).toEqual(clients);
    expect(proxy.connectionsPerNode()).toEqual([2, 1]);
  });
});

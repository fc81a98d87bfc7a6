import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSender, type Sender } from './sender.js';
import { answer, type Receiver, startReceiver } from './testing/receiver.js';

const timeoutMs = 1000;
const signed = (url: string) => ({
  url,
  body: '{"id":"evt_1"}',
  headers: { 'content-type': 'application/json' },
});
const open: Array<{ close(): Promise<void> }> = [];
const allowPrivate = { allowPrivate: true };

function sender(options: Partial<Parameters<typeof createSender>[0]> = {}): Sender {
  const created = createSender({ policy: allowPrivate, timeoutMs, ...options });
  open.push(created);
  return created;
}

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  open.push(started);
  return started;
}

/** A raw TCP server: for receivers that break HTTP itself. */
async function tcpServer(onConnection: Parameters<typeof createTcpServer>[1]): Promise<string> {
  const server: TcpServer = createTcpServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () => new Promise((resolve) => server.close(() => resolve())),
  });
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

describe('sender', () => {
  it('counts any 2xx as delivered and reuses the connection', async () => {
    const target = await receiver(answer(202));
    const client = sender();
    const results = [await client.send(signed(target.url)), await client.send(signed(target.url))];
    expect(results.map((result) => [result.delivered, result.statusCode, result.error])).toEqual([
      [true, 202, null],
      [true, 202, null],
    ]);
    const ports = target.received.map((entry) => entry.headers.connection);
    expect(ports).toEqual(['keep-alive', 'keep-alive']);
  });

  it('fails a receiver that hangs, after the timeout', async () => {
    const target = await receiver(() => {});
    const result = await sender().send(signed(target.url));
    expect(result).toMatchObject({
      delivered: false,
      statusCode: null,
      error: 'timeout: no response within 1 s',
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(timeoutMs - 50);
  });

  it('fails a 200 that comes after the timeout', async () => {
    const target = await receiver((_request, response) => {
      setTimeout(() => response.writeHead(200).end(), timeoutMs + 500);
    });
    const result = await sender().send(signed(target.url));
    expect(result).toMatchObject({
      delivered: false,
      statusCode: null,
      error: expect.stringMatching(/^timeout/),
    });
  });

  it('times each send out from its own start (one timer serves them all)', async () => {
    const target = await receiver(() => {});
    const client = sender();
    const first = client.send(signed(target.url));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const startedSecond = Date.now();
    const second = client.send(signed(target.url));
    const [firstResult, secondResult] = await Promise.all([first, second]);
    const secondEndedAfter = Date.now() - startedSecond;
    for (const result of [firstResult, secondResult]) {
      expect(result).toMatchObject({ delivered: false, error: 'timeout: no response within 1 s' });
      expect(result.durationMs).toBeGreaterThanOrEqual(timeoutMs - 50);
    }
    // The second did not end with the first one's deadline.
    expect(secondEndedAfter).toBeGreaterThanOrEqual(timeoutMs - 50);
  });

  it('counts a 2xx whose body never ends as delivered, and drops it at the timeout', async () => {
    let closedAt = 0;
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('x');
      response.on('close', () => {
        closedAt = Date.now();
      });
    });
    const startedAt = Date.now();
    const result = await sender().send(signed(target.url));
    expect(result).toMatchObject({ delivered: true, statusCode: 200, error: null });
    expect(result.durationMs).toBeLessThan(timeoutMs);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(timeoutMs - 50);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closedAt).toBeGreaterThan(0);
  });

  it('drops a 1 GB answer after a few kilobytes instead of reading it', async () => {
    let written = 0;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const target = await receiver((_request, response) => {
      response.writeHead(500, { 'content-length': String(1024 ** 3) });
      const pump = () => {
        while (written < 1024 ** 3 && response.write(chunk)) written += chunk.length;
        if (written < 1024 ** 3 && !response.destroyed) response.once('drain', pump);
      };
      response.on('close', () => response.removeAllListeners('drain'));
      pump();
    });
    const result = await sender().send(signed(target.url));
    expect(result).toMatchObject({ delivered: false, statusCode: 500, error: 'status 500' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('does not follow a redirect', async () => {
    const elsewhere = await receiver();
    const target = await receiver((_request, response) =>
      response.writeHead(302, { location: elsewhere.url }).end(),
    );
    const result = await sender().send(signed(target.url));
    expect(result).toMatchObject({ delivered: false, statusCode: 302, error: 'redirect 302 not followed' });
    expect(elsewhere.received).toHaveLength(0);
  });

  it('fails a receiver that closes mid-response', async () => {
    const address = await tcpServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Len'));
    });
    const result = await sender().send(signed(`http://${address}/hook`));
    expect(result).toMatchObject({ delivered: false, statusCode: null });
    expect(result.error).toMatch(/closed|HPE_|Parse/i);
  });

  it('fails a refused connection', async () => {
    const address = await tcpServer(() => {});
    open.pop()?.close();
    const result = await sender().send(signed(`http://${address}/hook`));
    expect(result).toMatchObject({ delivered: false, error: 'connection refused' });
  });

  it('fails a name that does not resolve', async () => {
    const result = await sender().send(signed('https://no-such-receiver.invalid/hook'));
    expect(result).toMatchObject({
      delivered: false,
      statusCode: null,
      error: expect.stringMatching(/^DNS: /),
    });
  });

  it('fails a TLS handshake that cannot succeed', async () => {
    // A plain-text server behind an https url: the client's handshake meets no TLS at all.
    const target = await receiver(answer(204));
    const result = await sender().send(signed(target.url.replace('http:', 'https:')));
    expect(result).toMatchObject({
      delivered: false,
      statusCode: null,
      error: expect.stringMatching(/^TLS: /),
    });
    expect(target.received).toHaveLength(0);
  });

  it('refuses a name that starts resolving to 127.0.0.1 (DNS rebinding) when it connects', async () => {
    const target = await receiver(answer(204));
    const { port } = new URL(target.url);
    let answers = 0;
    // The resolver changes its answer after the first lookup, as a rebinding attacker's DNS would.
    const resolver = async (_hostname: string) => [
      { address: answers++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 },
    ];
    const client = sender({ policy: { allowPrivate: false }, resolver });
    await resolver('receiver.example');
    const result = await client.send(signed(`http://receiver.example:${port}/hook`));
    expect(result).toMatchObject({ delivered: false, statusCode: null });
    expect(result.error).toBe(
      'target refused: receiver.example resolves to 127.0.0.1 is a loopback or private address',
    );
    expect(target.received).toHaveLength(0);
  });

  it('refuses a loopback literal unless private targets are allowed', async () => {
    const target = await receiver(answer(204));
    const refused = await sender({ policy: { allowPrivate: false } }).send(signed(target.url));
    expect(refused.error).toMatch(/^target refused: 127\.0\.0\.1 is a loopback/);
    expect((await sender().send(signed(target.url))).delivered).toBe(true);
    expect(target.received).toHaveLength(1);
  });
});

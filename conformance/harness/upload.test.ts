// The body-limit upload against real node:http servers on 127.0.0.1: one that refuses by Content-Length and drops the
// connection with the body unread (the race fetch lost as "fetch failed"), one that takes the whole body, one that
// resets without an answer.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UploadWithoutAnswer, upload } from './upload.js';

const body = Buffer.alloc(6 * 1024 * 1024, 'a');
let server: Server | null = null;

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<URL> {
  server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/reports`);
}

afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = null;
});

describe('upload', () => {
  it('keeps a 413 sent on the head even when the server then destroys the connection with the body unread', async () => {
    const url = await serve((request, response) => {
      response.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      response.end('{"error":{"code":"body_too_large"}}', () => request.socket.destroy());
    });
    for (let round = 0; round < 5; round += 1) {
      const answer = await upload(url, 'POST', { 'content-type': 'application/json' }, body);
      expect([answer.status, answer.text]).toEqual([413, '{"error":{"code":"body_too_large"}}']);
    }
  });

  it('sends the whole body to a server that reads it, and returns its answer (a target that accepts is judged)', async () => {
    const url = await serve((request, response) => {
      let length = 0;
      request.on('data', (chunk: Buffer) => {
        length += chunk.length;
      });
      request.on('end', () => {
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ length }));
      });
    });
    const answer = await upload(url, 'POST', {}, body);
    expect([answer.status, JSON.parse(answer.text)]).toEqual([201, { length: body.length }]);
  });

  it('reports a reset before any answer as such, with how far the upload got', async () => {
    const url = await serve((request) => request.socket.resetAndDestroy());
    const failure = await upload(url, 'POST', {}, body).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UploadWithoutAnswer);
    expect(String(failure)).toMatch(
      /closed the connection \(\w+\) after \d+ of 6291456 body bytes, without an answer/,
    );
  });
});

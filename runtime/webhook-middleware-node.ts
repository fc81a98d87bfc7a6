import type { IncomingHttpHeaders } from 'node:http';
import type { BoundVerifier } from './webhook-middleware.js';
import { WebhookVerificationError } from './webhook-signature.js';

/** Fastify's default body limit, so that the three receivers refuse the same deliveries. */
export const defaultMaxBodyBytes = 1_048_576;

export interface RawBodyOptions {
  /** Larger bodies are refused with `body-too-large`. */
  maxBodyBytes?: number;
}

export type RequestStream = NodeJS.ReadableStream & { headers: IncomingHttpHeaders };

function tooLarge(maxBytes: number): WebhookVerificationError {
  return new WebhookVerificationError('body-too-large', `the body exceeds ${maxBytes} bytes`);
}

/**
 * Reads a request's body as the exact bytes that were signed. Past the limit it stops collecting and drains the rest,
 * so the socket stays usable for the answer.
 */
export function readRawBody(request: RequestStream, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(request.headers['content-length']) > maxBytes) {
      request.resume();
      reject(tooLarge(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      request.removeListener('data', onData);
      request.removeListener('end', onEnd);
      request.removeListener('error', onError);
    };
    function onData(chunk: Buffer | string): void {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > maxBytes) {
        stop();
        request.resume();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(bytes);
    }
    function onEnd(): void {
      stop();
      resolve(Buffer.concat(chunks, received));
    }
    function onError(error: Error): void {
      stop();
      reject(error);
    }
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

/** For a bare node:http server: `const event = await readAndVerify(request)`. */
export function createNodeWebhookReader<Event>(verify: BoundVerifier<Event>, options: RawBodyOptions = {}) {
  const maxBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  return {
    async readAndVerify(request: RequestStream): Promise<Event> {
      return verify(await readRawBody(request, maxBytes), request.headers);
    },
  };
}

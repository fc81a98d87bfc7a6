// HTTP requests from one chosen source address. Against a target on loopback the suite can speak from an address of
// its own (any of 127.0.0.0/8), so a check that uses up the per-address window refuses nobody else of the run.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Exchange } from './probe.js';

/** A fresh loopback source address when the target is on loopback (Linux answers all of 127/8), else null. */
export function ownLoopbackAddress(baseUrl: string): string | null {
  const host = new URL(baseUrl).hostname;
  const loopback = host === 'localhost' || (isIP(host) === 4 && host.startsWith('127.'));
  if (!loopback || process.platform !== 'linux') return null;
  const byte = () => 1 + Math.floor(Math.random() * 254);
  return `127.${byte()}.${byte()}.${byte()}`;
}

export interface AddressedRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request from `localAddress` (null: the system's choice), answered as an exchange. */
export function requestFrom(localAddress: string | null, options: AddressedRequest): Promise<Exchange> {
  const url = new URL(options.url);
  const transport = url.protocol === 'https:' ? https : http;
  const headers = {
    ...options.headers,
    ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
  };
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: options.method,
        headers,
        agent: false,
        ...(localAddress === null ? {} : { localAddress, family: 4 }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            // Not JSON: the text is the evidence.
          }
          const shown = Object.fromEntries(
            Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
          );
          resolve({
            request: {
              method: options.method,
              url: url.toString(),
              headers: { ...options.headers },
              ...(options.body === undefined ? {} : { body: options.body }),
            },
            response: { status: response.statusCode ?? 0, headers: shown, body, text: text.slice(0, 2000) },
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

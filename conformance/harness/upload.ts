// A request with a large body over node:http(s), for the probes of a body limit. A target may refuse such a body as
// soon as it reads the head (413 by Content-Length) and close the connection while the client still sends; fetch
// then reports "fetch failed" and loses the answer. Here the head and a first part of the body go out, the client
// waits a moment for an early answer (kept, and the upload stops), and only then sends the rest: a target that takes
// the whole body still gets it and is judged by its answer, and a reset before any answer is an error saying so.
import http from 'node:http';
import https from 'node:https';

export interface UploadAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Sent before the pause: enough for a target to have read the head and decided. */
const firstPartBytes = 64 * 1024;
/** How long the client waits for an early answer before sending the rest of the body. */
const earlyAnswerWaitMs = 2000;

/** A connection reset (or refused) before the target answered, with how far the upload got. */
export class UploadWithoutAnswer extends Error {
  constructor(cause: NodeJS.ErrnoException, sentBytes: number, totalBytes: number) {
    super(
      `the target closed the connection (${cause.code ?? cause.message}) after ${sentBytes} of ${totalBytes} body bytes, without an answer`,
    );
    this.name = 'UploadWithoutAnswer';
  }
}

function headersOf(response: http.IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(response.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  );
}

/** Sends `body` to `url`, reading an answer that comes before the upload ends; see the file's comment. */
export function upload(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<UploadAnswer> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const request = transport.request(url, {
      method,
      headers: { ...headers, 'content-length': String(body.length) },
      agent: false,
    });
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      const done = () => {
        resolve({
          status: response.statusCode ?? 0,
          headers: headersOf(response),
          text: Buffer.concat(chunks).toString('utf8'),
        });
        request.destroy();
      };
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', done);
      // Cut short after it began (the target reset the rest of the upload): what came is the answer.
      response.on('error', done);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered) reject(new UploadWithoutAnswer(error, sentBytes, body.length));
    });
    const first = body.subarray(0, firstPartBytes);
    request.write(first, () => {
      sentBytes = first.length;
    });
    const timer = setTimeout(() => {
      if (answered || request.destroyed) return;
      request.end(body.subarray(firstPartBytes), () => {
        sentBytes = body.length;
      });
    }, earlyAnswerWaitMs);
    request.on('close', () => clearTimeout(timer));
  });
}

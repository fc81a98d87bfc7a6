// Issue 12, item 8: one structured line per request (request id, status, time), every 5xx with its stack, no
// secret in any line, nothing at all by default.
import { describe, expect, it } from 'vitest';
import { restCaller } from '../testing/account-resources.js';
import { useServiceFixture } from '../testing/service-fixture.js';
import { buildApps } from './build-apps.js';

const fixture = useServiceFixture();

function collector() {
  const lines: Array<Record<string, unknown>> = [];
  const texts: string[] = [];
  return {
    lines,
    texts,
    stream: {
      write(line: string) {
        texts.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  };
}

describe('request log (issue 12, item 8)', () => {
  it('writes one line per request with its id, status and time, and no secret', async () => {
    const service = fixture();
    const account = await service.createAccount();
    const log = collector();
    const apps = await buildApps(service.dependencies, { logLevel: 'info', logStream: log.stream });
    try {
      const call = restCaller(service, apps.api);
      const created = await call('createStream', { token: account.keys.secret.key, body: { title: 'Pump' } });
      const refused = await call('getAccount', { token: 'sk_live_not-a-real-key-but-secret-looking' });
      expect(log.lines).toHaveLength(2);
      expect(log.lines[0]).toMatchObject({
        requestId: created.headers['request-id'],
        method: 'POST',
        status: 201,
        milliseconds: expect.any(Number),
      });
      expect(log.lines[1]).toMatchObject({ requestId: refused.headers['request-id'], status: 401 });
      const everything = log.texts.join('');
      expect(everything).not.toContain(account.keys.secret.key);
      expect(everything).not.toContain('not-a-real-key');
      // The stream key is a secret returned once: neither it nor any body is logged.
      expect(everything).not.toContain(String((created.body as { streamKey?: string }).streamKey));
    } finally {
      await Promise.all([apps.api.close(), apps.auth.close()]);
    }
  });

  it('logs a 5xx with the stack of its cause', async () => {
    const service = fixture();
    const account = await service.createAccount();
    const log = collector();
    const failing = {
      ...service.store,
      streams: {
        ...service.store.streams,
        list: async () => {
          throw new Error('the database is gone');
        },
      },
    };
    const apps = await buildApps(
      { ...service.dependencies, store: failing },
      { logLevel: 'info', logStream: log.stream },
    );
    try {
      const reply = await restCaller(service, apps.api)('listStreams', { token: account.keys.secret.key });
      expect(reply.status).toBe(500);
      const stacks = log.lines.map((line) => (line.err as { stack?: string } | undefined)?.stack ?? '');
      expect(stacks.join('\n')).toMatch(/the database is gone\n\s+at /);
      expect(log.lines.at(-1)).toMatchObject({ requestId: reply.headers['request-id'], status: 500 });
    } finally {
      await Promise.all([apps.api.close(), apps.auth.close()]);
    }
  });

  it('is silent by default', async () => {
    const service = fixture();
    const writes: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => writes.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      await restCaller(service)('getAccount', {});
    } finally {
      process.stdout.write = write;
    }
    expect(writes).toEqual([]);
  });
});

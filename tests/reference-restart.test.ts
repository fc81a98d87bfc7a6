// The reference service as `npm start` runs it: acknowledged writes survive a SIGKILL of the whole process, and the
// credentials of a fresh data directory are printed on its first start only.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { routes } from '../generated/server/routes.js';
import { securitySchemeFacts } from '../generated/types/facts.js';
import { assertNotRunning } from '../reference/data-dir-lock.js';
import { operationPath, type RestOperationId } from '../reference/testing/call-operation.js';
import { freePort } from '../reference/testing/free-port.js';
import { type ServiceProcess, startServiceProcess } from '../reference/testing/service-process.js';

const scratchRoot = fileURLToPath(new URL('../.tmp/', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const { keyTypes } = securitySchemeFacts.ApiKey;
/** A key type's pattern without its anchors, to find keys inside the printed text. */
const keyPattern = (kind: 'secret' | 'publishable') => keyTypes[kind].pattern.replace(/^\^|\$$/g, '');
const running: ServiceProcess[] = [];
let dataDir = '';

afterAll(async () => {
  await Promise.all(running.map((service) => service.stop('SIGKILL')));
  if (dataDir !== '') await rm(path.dirname(dataDir), { recursive: true, force: true });
});

async function startService(environment: Record<string, string>, viaNpm = false) {
  const service = startServiceProcess(environment, { viaNpm });
  running.push(service);
  // A first start initialises the database: minutes on a loaded machine, so the wait is generous.
  const [, baseUrl = ''] = await service.waitFor(/REST API\s+(\S+)/, 150_000);
  await service.waitFor(/Data\s+\S+/);
  return { service, baseUrl };
}

/** One operation over HTTP with the free account's key; the body parsed. */
async function request(
  baseUrl: string,
  key: string,
  operationId: RestOperationId,
  params = {},
  body?: object,
) {
  const response = await fetch(`${baseUrl}${operationPath(operationId, params)}`, {
    method: routes[operationId].method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown> & { id: string },
  };
}

/** A live-feed subscriber of `streamId` on a token of the account's key; resolves once connected. */
async function subscribe(baseUrl: string, key: string, streamId: string): Promise<WebSocket> {
  const token = await request(baseUrl, key, 'createSubscriberToken', { streamId }, {});
  expect(token.status, JSON.stringify(token.body)).toBe(201);
  const { wsUrl } = (await request(baseUrl, key, 'getStream', { streamId })).body as unknown as {
    wsUrl: string;
  };
  const socket = new WebSocket(`${wsUrl}?token=${encodeURIComponent(String(token.body.token))}`);
  socket.on('error', () => {});
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return socket;
}

interface Written {
  operationId: RestOperationId;
  params: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * Issue 12, item 13: the README's example of the generated client (examples/client.ts) runs against this `npm start`
 * with the addresses and credentials it printed, OAuth included, and prints what each step promises.
 */
async function runClientExample(firstOutput: string, output: string, apiKey: string): Promise<void> {
  const printed = (pattern: RegExp, text = output) => pattern.exec(text)?.[1] ?? '';
  const client = /OAuth client (\S+) secret (\S+) redirect (\S+)/.exec(firstOutput) ?? [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/client.ts'], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      TELEMETRY_BASE_URL: printed(/REST API\s+(\S+)/),
      TELEMETRY_API_KEY: apiKey,
      TELEMETRY_AUTH_URL: printed(/OAuth\s+(http\S+)/),
      TELEMETRY_OAUTH_CLIENT_ID: client[1] ?? '',
      TELEMETRY_OAUTH_CLIENT_SECRET: client[2] ?? '',
      TELEMETRY_OAUTH_REDIRECT_URI: client[3] ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  const [code] = (await once(child, 'close')) as [number | null];
  expect({ code, text }).toEqual({
    code: 0,
    text: expect.stringMatching(/found stm_\S+ \(Pump 7\) while listing/),
  });
  expect(text).toMatch(/not found: 404 resource_missing \(request \S+\)/);
  expect(text).toMatch(/OAuth: account acct_\S+/);
}

describe('npm start, SIGKILL, npm start again', () => {
  it('keeps every acknowledged write and prints the keys on the first start only', async () => {
    await mkdir(scratchRoot, { recursive: true });
    dataDir = path.join(await mkdtemp(path.join(scratchRoot, 'reference-restart-')), 'data');
    const environment = {
      TELEMETRY_DATA_DIR: dataDir,
      TELEMETRY_API_PORT: String(await freePort()),
      TELEMETRY_AUTH_PORT: String(await freePort()),
      // Stream objects carry the MQTT URL: the same port after the restart keeps them comparable.
      TELEMETRY_MQTT_PORT: String(await freePort()),
    };

    const first = await startService(environment);
    // The OAuth client is the last line of the first start's credentials.
    await first.service.waitFor(/OAuth client .+\n/);
    const freeAccount = /free account \S+\n((?:\s{4}.+\n)+)/.exec(first.service.output())?.[1] ?? '';
    const key = new RegExp(`secret\\s+(${keyPattern('secret')})`).exec(freeAccount)?.[1];
    if (key === undefined)
      throw new Error(`no secret key of the free account in:\n${first.service.output()}`);

    const created = async (operationId: RestOperationId, params: Record<string, string>, body: object) => {
      const reply = await request(first.baseUrl, key, operationId, params, body);
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return reply.body;
    };
    const written: Written[] = [];
    const report = await created('createReport', {}, { title: 'Restart report 0' });
    written.push({ operationId: 'getReport', params: { reportId: report.id }, body: report });
    for (let index = 0; index < 10; index += 1) {
      const { streamKey: _shownOnce, ...stream } = await created(
        'createStream',
        {},
        { title: `Stream ${index}` },
      );
      written.push({ operationId: 'getStream', params: { streamId: stream.id }, body: stream });
      const sample = { ts: index, values: { rpm: index } };
      const record = await created('createRecord', { reportId: report.id }, { samples: [sample] });
      written.push({
        operationId: 'getRecord',
        params: { reportId: report.id, recordId: record.id },
        body: record,
      });
    }
    for (let index = 1; index < 10; index += 1) {
      const more = await created('createReport', {}, { title: `Restart report ${index}` });
      written.push({ operationId: 'getReport', params: { reportId: more.id }, body: more });
    }
    expect(written).toHaveLength(30);
    // A subscriber connected when the service dies: the restarted service must not count it.
    const watched = written.find((each) => each.operationId === 'getStream')?.params.streamId ?? '';
    const subscriber = await subscribe(first.baseUrl, key, watched);
    await expect
      .poll(
        async () =>
          (await request(first.baseUrl, key, 'getStream', { streamId: watched })).body.subscriberCount,
      )
      .toBe(1);
    await first.service.stop('SIGKILL');
    subscriber.terminate();
    expect(first.service.child.signalCode).toBe('SIGKILL');

    // The second start is the real `npm start`, so that its stop below is what a user's SIGTERM does; it approves
    // OAuth consent at once so that the README's client example can run its OAuth part against it.
    const second = await startService({ ...environment, TELEMETRY_AUTO_APPROVE_CONSENT: 'true' }, true);
    const recordsOfFirstReport = written.filter((each) => each.operationId === 'getRecord').length;
    const differences: string[] = [];
    for (const { operationId, params, body } of written) {
      const reply = await request(second.baseUrl, key, operationId, params);
      // The first report gained its records after its 201.
      const isFirstReport = operationId === 'getReport' && params.reportId === report.id;
      const expected = isFirstReport ? { ...body, recordCount: recordsOfFirstReport } : body;
      if (reply.status !== 200 || !isDeepStrictEqual(reply.body, expected)) {
        differences.push(
          `${operationId} ${JSON.stringify(params)}: ${reply.status} ${JSON.stringify(reply.body)}`,
        );
      }
    }
    expect(differences).toEqual([]);
    for (const kind of ['secret', 'publishable'] as const) {
      expect(first.service.output()).toMatch(new RegExp(keyPattern(kind)));
      expect(second.service.output()).not.toMatch(new RegExp(keyPattern(kind)));
    }
    expect(second.service.output()).not.toContain(keyTypes.servicePrefix);
    await runClientExample(first.service.output(), second.service.output(), key);

    // Issue 12, item 15: SIGTERM to npm's pid alone stops the service: nothing of it is left, the port is free and
    // the data directory's lock is released.
    const npmPid = second.service.child.pid ?? 0;
    process.kill(npmPid, 'SIGTERM');
    await second.service.groupGone(20_000);
    await expect(fetch(second.baseUrl, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    await expect(assertNotRunning(dataDir)).resolves.toBeUndefined();
  }, 400_000);
});

// Issue 12, item 5: hostile input never gives a 5xx, and every error is the envelope. The corpus goes over raw
// sockets to a listening service (framing, methods, headers); the property test puts arbitrary JSON (lone
// surrogates, huge numbers, deep values, odd keys) into every body of every operation that takes one.

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { isErrorEnvelope } from '../../runtime/error-envelope.js';
import { type RunningService, start } from '../start.js';
import { restCaller } from '../testing/account-resources.js';
import { restOperationIds } from '../testing/call-operation.js';
import { hostileRequests, judge, sendRaw } from '../testing/hostile-requests.js';
import { useServiceFixture } from '../testing/service-fixture.js';

describe('hostile requests over raw sockets (issue 12, item 5)', () => {
  let service: RunningService;
  let directory: string;
  beforeAll(async () => {
    await mkdir('.tmp', { recursive: true });
    directory = await mkdtemp(path.join('.tmp', 'hostile-'));
    // The corpus sends hundreds of bad requests from one address: its limit is not what is tested here.
    service = await start({ dataDir: directory, addressRequestsPerWindow: 1_000_000 });
  });
  afterAll(async () => {
    await service?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('answers every request of the corpus below 500, with the envelope for every error', async () => {
    const base = new URL(service.urls.baseUrl);
    const token = service.seeded?.accounts.paid?.keys.secret.key ?? '';
    const verdicts: string[] = [];
    for (const hostile of hostileRequests(base.pathname)) {
      const raw = hostile.raw.replaceAll('{host}', base.host).replaceAll('{token}', token);
      const verdict = judge(hostile, await sendRaw(Number(base.port), raw));
      if (verdict !== null) verdicts.push(`${hostile.name}: ${verdict}`);
    }
    expect(verdicts).toEqual([]);
  });
});

const fixture = useServiceFixture();
const bodyOperations = restOperationIds.filter((operationId) => routes[operationId].requestBody !== null);
const ids = {
  streamId: 'stm_0000000000000000',
  reportId: 'rpt_0000000000000000',
  recordId: 'rec_0000000000000000',
};

describe('arbitrary JSON bodies (issue 12, item 5)', () => {
  it('never answers 5xx nor an error outside the envelope', async () => {
    const service = fixture();
    const call = restCaller(service);
    const token = (await service.createAccount('paid')).keys.secret.key;
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const strings = fc.string({ unit: 'binary', maxLength: 8 });
    const bodies = fc.oneof(
      anyJson,
      fc.dictionary(strings, anyJson, { maxKeys: 4 }),
      fc.record({
        title: fc.oneof(strings, anyJson),
        metadata: fc.dictionary(strings, fc.oneof(strings, anyJson)),
      }),
      fc.record({
        title: strings,
        samples: fc.array(fc.record({ ts: fc.double(), values: fc.dictionary(strings, fc.double()) }), {
          maxLength: 3,
        }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bodyOperations), bodies, async (operationId, body) => {
        service.nextRateWindow();
        const reply = await call(operationId, { token, params: ids, body: JSON.stringify(body) });
        expect(reply.status, reply.text).toBeLessThan(500);
        if (reply.status >= 400) expect(isErrorEnvelope(reply.body), reply.text).toBe(true);
        if (isErrorEnvelope(reply.body)) expect(reply.body.error.param).not.toBe('');
      }),
      { numRuns: 300 },
    );
  });
});

// The broken variants' switches (reference/faults.ts) are for the harness's own tests: `npm start` cannot turn them
// on, and off they change nothing.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deviceTelemetryAddress } from '../generated/messages/index.js';
import { apiPolicies } from '../generated/types/facts.js';
import { loadStartOptions } from './config.js';
import { faultyRetryDelays, signingTime } from './delivery/delivery-faults.js';
import type { ReferenceFaults } from './faults.js';
import { onlineSnapshot, publishTarget } from './ingest/ingest-faults.js';

const everyFault: Required<ReferenceFaults> = {
  retryDelay: { index: 0, factor: 3 },
  retriesDropped: 1,
  signatureSkewSeconds: -600,
  redirectCountsAsDelivered: true,
  webhookUserInfoAccepted: true,
  otherTopicsAdmitted: true,
  onlineWithoutStartedAt: true,
  unknownProtocolLevelUnanswered: true,
  authenticationMethodIgnored: true,
  protocolErrorsUnexplained: true,
  reasonStringOverMaximumPacketSize: true,
  topicNamesUnchecked: true,
  slowConsumerClosesAll: true,
  malformedHandshakeInPlainText: true,
  publishedRecordEndsRecording: true,
};

describe('reference faults', () => {
  it('cannot be switched on by npm start: a config file naming them is read without them', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'faults-config-'));
    try {
      const file = path.join(directory, 'telemetry.config.json');
      await writeFile(file, JSON.stringify({ timeScale: 2, faults: everyFault }));
      const environment = { TELEMETRY_FAULTS: JSON.stringify(everyFault), TELEMETRY_TIME_SCALE: '3' };
      const options = loadStartOptions(file, environment, directory);
      expect(options.timeScale).toBe(3);
      expect('faults' in options).toBe(false);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('are reached from main.ts only through loadStartOptions, which drops them', async () => {
    const main = await readFile(path.join(import.meta.dirname, 'main.ts'), 'utf8');
    expect(main).not.toMatch(/faults/i);
    expect(main).toMatch(/const loaded = loadStartOptions\(/);
    expect(main).toMatch(
      /const options = values\[.node-id.\] === undefined \? loaded : \{ \.\.\.loaded, nodeId: /,
    );
    expect(main.match(/\bstart\(/g)).toEqual(['start(']);
    expect(main).toMatch(/await start\(options\)/);
  });

  it('change nothing when off', () => {
    const delays = apiPolicies.webhookDelivery.retryDelaysSeconds;
    expect(faultyRetryDelays(delays, undefined)).toEqual(delays);
    expect(faultyRetryDelays(delays, {})).toEqual(delays);
    expect(signingTime(1_000, undefined)).toBe(1_000);
    expect(publishTarget(deviceTelemetryAddress({ streamId: 'str_a' }), 'str_a', {})).toBe('str_a');
    expect(publishTarget(deviceTelemetryAddress({ streamId: 'str_b' }), 'str_a', {})).toBeNull();
    const snapshot = { id: 'str_a', startedAt: '2026-01-01T00:00:00.000Z' };
    expect(onlineSnapshot(snapshot, {})).toEqual(snapshot);
  });

  it('each break one thing when on', () => {
    const delays = apiPolicies.webhookDelivery.retryDelaysSeconds;
    expect(faultyRetryDelays(delays, { retryDelay: { index: 1, factor: 2 } })[1]).toBe((delays[1] ?? 0) * 2);
    expect(faultyRetryDelays(delays, { retriesDropped: 1 })).toEqual(delays.slice(0, -1));
    expect(signingTime(1_000, { signatureSkewSeconds: -1 })).toBe(0);
    expect(publishTarget(deviceTelemetryAddress({ streamId: 'str_b' }), 'str_a', everyFault)).toBe('str_b');
    expect(onlineSnapshot({ id: 'str_a', startedAt: 'x' }, everyFault)).toEqual({ id: 'str_a' });
  });
});

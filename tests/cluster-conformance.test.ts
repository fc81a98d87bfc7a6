// The conformance suite against the two-node deployment of ADR 0023 through its public URLs only: PostgreSQL and
// Redis on loopback, two nodes of the reference, and one round-robin TCP balancer per port kind (REST + WebSocket,
// OAuth, MQTT) in front of both, so devices, subscribers and REST calls land on either node; the balancers keep each
// loopback client's own address, so the per-address windows (shared through Redis) count the suite's addresses as a
// transparent balancer would. The harness gets the balancers' URLs and the seeded credentials, nothing else. About
// 90-110 s: opt-in with TELEMETRY_CLUSTER_CONFORMANCE=1, which .ci/run sets (ADR 0023).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RequirementRow } from '../conformance/report/results.js';
import { cleanEnvironment, runTsx } from '../conformance/testing/run-tsx.js';
import {
  type RoundRobinProxy,
  startRoundRobinProxy,
} from '../reference/cluster/testing/round-robin-proxy.js';
import { startTopology, type Topology } from '../reference/cluster/testing/two-nodes.js';
import { freePort } from '../reference/testing/free-port.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const enabled = process.env.TELEMETRY_CLUSTER_CONFORMANCE === '1';
const cleanups: (() => Promise<unknown>)[] = [];

async function nodePorts() {
  return { apiPort: await freePort(), authPort: await freePort(), mqttPort: await freePort() };
}

describe.skipIf(!enabled)('npm run conformance against two nodes behind one address', () => {
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('passes with 0 failed; both nodes served REST, MQTT and WebSocket connections', {
    timeout: 900_000,
  }, async () => {
    const [api, auth, mqtt] = [
      await startRoundRobinProxy(),
      await startRoundRobinProxy(),
      await startRoundRobinProxy(),
    ];
    const proxies: RoundRobinProxy[] = [api, auth, mqtt];
    cleanups.push(() => Promise.all(proxies.map((proxy) => proxy.close())));
    const ports = [await nodePorts(), await nodePorts()];
    api.forwardTo(ports.map((node) => node.apiPort));
    auth.forwardTo(ports.map((node) => node.authPort));
    mqtt.forwardTo(ports.map((node) => node.mqttPort));
    const publicUrls = {
      baseUrl: `http://127.0.0.1:${api.port}/v2`,
      authUrl: `http://127.0.0.1:${auth.port}`,
      mqttBroker: `mqtt://127.0.0.1:${mqtt.port}`,
      wsUrl: `ws://127.0.0.1:${api.port}`,
    };
    const topology = await startTopology((nodeIndex) => ({
      ...ports[nodeIndex],
      publicUrls,
      seedExtras: { extraSecretKeys: 2, revokedKey: true },
    }));
    if ('unavailable' in topology) throw new Error(topology.unavailable);
    cleanups.push(() => topology.stop());
    const scratch = await mkdtemp(path.join(root, '.tmp-cluster-conformance-'));
    cleanups.push(() => rm(scratch, { recursive: true, force: true }));
    const flags = credentialFlags(topology);
    const webhookPort = await freePort();
    const finished = await runTsx(
      root,
      [
        'conformance/cli.ts',
        '--base-url',
        publicUrls.baseUrl,
        '--auth-url',
        publicUrls.authUrl,
        '--mqtt-url',
        publicUrls.mqttBroker,
        '--ws-url',
        publicUrls.wsUrl,
        ...flags,
        '--webhook-listen',
        `127.0.0.1:${webhookPort}`,
        '--webhook-public-url',
        `http://127.0.0.1:${webhookPort}/hook`,
        '--profile',
        'full',
        '--allow-uncovered',
        '--report-dir',
        path.join(scratch, 'report'),
      ],
      { environment: cleanEnvironment(), timeoutMilliseconds: 880_000 },
    );
    const output = finished.stdout + finished.stderr;
    const report = JSON.parse(await readFile(path.join(scratch, 'report', 'report.json'), 'utf8')) as {
      requirements: RequirementRow[];
    };
    const failed = report.requirements.filter((row) => row.status === 'failed');
    const failedChecks = new Map<string, string>();
    for (const row of failed)
      for (const check of row.checks)
        if (check.state === 'failed') failedChecks.set(check.title, (check.detail ?? '').slice(0, 1500));
    for (const [title, detail] of failedChecks) console.info(`FAILED CHECK ${title}\n${detail}`);
    const counts = new Map<string, number>();
    for (const row of report.requirements) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
    console.info(
      `two-node conformance: ${JSON.stringify(Object.fromEntries(counts))}; connections per node: ` +
        `REST/WS ${api.connectionsPerNode()}, OAuth ${auth.connectionsPerNode()}, MQTT ${mqtt.connectionsPerNode()}`,
    );
    expect(
      failed.map((row) => row.requirement.id),
      output.slice(-6000),
    ).toEqual([]);
    expect(finished.exitCode, output.slice(-6000)).toBe(0);
    expect(counts.get('passed') ?? 0).toBeGreaterThan(100);
    for (const proxy of proxies)
      for (const count of proxy.connectionsPerNode()) expect(count).toBeGreaterThan(0);
  });
});

function credentialFlags(topology: Topology): string[] {
  const { seeded } = topology;
  return [
    '--paid-key',
    seeded.accounts.paid.keys.secret.key,
    '--paid-key-extras',
    seeded.extraSecretKeys.join(','),
    '--free-key',
    seeded.accounts.free.keys.secret.key,
    '--publishable-key',
    seeded.accounts.paid.keys.publishable.key,
    ...(seeded.revokedKey === null ? [] : ['--revoked-key', seeded.revokedKey]),
    '--oauth-client-id',
    seeded.oauthClient.clientId,
    '--oauth-client-secret',
    seeded.oauthClient.clientSecret,
    '--oauth-redirect-uri',
    seeded.oauthClient.redirectUris[0] ?? '',
  ];
}

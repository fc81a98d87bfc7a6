// The harness against a deployment behind TLS: the embedded reference behind node:tls terminating proxies with a
// self-signed certificate made for the test (openssl), reached at https://, wss:// and mqtts:// URLs. With --ca-file
// the checks run over TLS and pass; without it the CLI refuses the target it cannot verify. About 30 s on a quiet
// machine (two CLI runs), so opt-in like the determinism runs: CONFORMANCE_TLS=1, which .ci/run sets.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedReference, startEmbedded } from '../conformance/harness/embedded-target.js';
import type { RequirementRow } from '../conformance/report/results.js';
import { cleanEnvironment, runTsx } from '../conformance/testing/run-tsx.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

interface TlsProxy {
  port: number;
  forwardTo(port: number): void;
  close(): Promise<void>;
}

/** A TLS server on 127.0.0.1 that pipes each connection to a plain port on 127.0.0.1. */
async function tlsProxy(key: Buffer, cert: Buffer): Promise<TlsProxy> {
  let target = 0;
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key, cert }, (client) => {
    const upstream = net.connect({ host: '127.0.0.1', port: target });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    forwardTo(port) {
      target = port;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!hasOpenssl || process.env.CONFORMANCE_TLS !== '1')(
  'npm run conformance against a deployment behind TLS',
  () => {
    let scratch = '';
    let reference: EmbeddedReference | null = null;
    const proxies: TlsProxy[] = [];
    let flags: string[] = [];

    beforeAll(async () => {
      scratch = await mkdtemp(path.join(root, '.tmp-conformance-tls-'));
      const keyFile = path.join(scratch, 'key.pem');
      const certFile = path.join(scratch, 'cert.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost,IP:127.0.0.1',
          '-keyout',
          keyFile,
          '-out',
          certFile,
        ],
        { stdio: 'ignore' },
      );
      const [key, cert] = await Promise.all([readFile(keyFile), readFile(certFile)]);
      const [api, mqtt] = [await tlsProxy(key, cert), await tlsProxy(key, cert)];
      proxies.push(api, mqtt);
      // The reference announces the TLS URLs (mqttTopic, wsUrl, reportUrl), as a deployment behind a TLS edge does;
      // its plain ports are chosen first, so the proxies know where to forward.
      const [apiPort, mqttPort] = [await freePort(), await freePort()];
      api.forwardTo(apiPort);
      mqtt.forwardTo(mqttPort);
      reference = await startEmbedded(root, {
        apiPort,
        mqttPort,
        seedExtras: { extraSecretKeys: 2, revokedKey: true },
        publicUrls: {
          baseUrl: `https://localhost:${api.port}/v2`,
          mqttBroker: `mqtts://localhost:${mqtt.port}`,
          wsUrl: `wss://localhost:${api.port}`,
        },
      });
      const seeded = reference.service.seeded;
      if (seeded === null) throw new Error('the reference seeded nothing');
      flags = [
        '--base-url',
        `https://localhost:${api.port}/v2`,
        '--mqtt-url',
        `mqtts://localhost:${mqtt.port}`,
        '--ws-url',
        `wss://localhost:${api.port}`,
        '--paid-key',
        seeded.accounts.paid.keys.secret.key,
        '--paid-key-extras',
        seeded.extraSecretKeys.join(','),
        '--profile',
        'full',
        '--allow-uncovered',
      ];
    }, 60_000);

    afterAll(async () => {
      await reference?.stop();
      await Promise.all(proxies.map((proxy) => proxy.close()));
      if (scratch !== '') await rm(scratch, { recursive: true, force: true });
    });

    it('runs REST, raw-socket, MQTT and WebSocket checks over TLS with --ca-file', {
      timeout: 180_000,
    }, async () => {
      const reportDir = path.join(scratch, 'report');
      const finished = await runTsx(
        root,
        [
          'conformance/cli.ts',
          ...flags,
          '--ca-file',
          path.join(scratch, 'cert.pem'),
          '--report-dir',
          reportDir,
          '10-create-stream',
          '25-rest-framing',
          '70-mqtt-ingest',
        ],
        { environment: cleanEnvironment(), timeoutMilliseconds: 170_000 },
      );
      const output = finished.stdout + finished.stderr;
      const report = JSON.parse(await readFile(path.join(reportDir, 'report.json'), 'utf8')) as {
        requirements: RequirementRow[];
      };
      const status = (id: string) => report.requirements.find((row) => row.requirement.id === id)?.status;
      expect(finished.exitCode, output).toBe(0);
      expect(output).toMatch(/ 0 failed, /);
      // https: a stream is created; raw TLS: a malformed request gets the envelope; mqtts: a device connects at
      // the broker and its sample reaches a wss:// subscriber.
      expect(status('EP-CREATE-STREAM'), output).toBe('passed');
      expect(status('INF-SCHEMAS-ERROR-CODE-ONEOF-REQUEST_MALFORMED'), output).toBe('passed');
      expect(status('RES-STREAM-MQTT-TOPIC'), output).toBe('passed');
    });

    it('refuses a target whose certificate it cannot verify without --ca-file', {
      timeout: 60_000,
    }, async () => {
      const finished = await runTsx(root, ['conformance/cli.ts', ...flags, '10-create-stream'], {
        environment: cleanEnvironment(),
        timeoutMilliseconds: 50_000,
      });
      expect(finished.exitCode).toBe(2);
      expect(finished.stderr).toMatch(/cannot reach https:\/\/localhost:\d+\/v2.*--ca-file/);
    });
  },
);

/** A port free on 127.0.0.1 a moment ago (the reference binds it right after). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

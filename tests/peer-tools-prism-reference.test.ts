// Issue 12 item 11: Prism's validation proxy in front of the embedded reference, over the HTTP conformance checks
// (REST, authentication, OAuth: files 10 to 69). Every answer the reference gives must match the spec: no response
// violation, no status the operation does not declare. Requests are broken on purpose by many checks, so request
// violations are not counted. Opt-in (TELEMETRY_PEER_TOOLS=1, set by .ci/run): the run takes over a minute.
//
//   checks ──► recorder (reads and strips sl-violations) ──► prism proxy ──► reference ({base_url} and {auth_url})
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fault, type FaultProxy, startFaultProxy } from '../conformance/testing/fault-proxy.js';
import { type ReferenceUnderTest, startReference } from '../conformance/testing/reference-under-test.js';
import { type IsolatedRun, runIsolated } from '../conformance/testing/run-isolated.js';
import { type BundledSpec, writeBundledSpec } from './support/bundled-spec.js';
import {
  type RunningPrismProxy,
  startPrismProxy,
  type Violation,
  violationsOf,
} from './support/prism-proxy.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const httpFiles = readdirSync(new URL('../conformance/checks/', import.meta.url))
  .filter((name) => /^[1-6]\d-.*\.check\.ts$/.test(name))
  .sort();
const undeclared = /Unable to match the returned status code/;

interface Exchange {
  method: string;
  path: string;
  status: number;
  violations: Violation[];
  /** The start of a 5xx body, to tell the reference's failures from the proxy's. */
  failure?: string;
  /** Prism answered on its own (a problem+json body): the reference's answer was not validated. */
  answeredByProxy: boolean;
}

const describeOptIn = process.env.TELEMETRY_PEER_TOOLS === '1' ? describe : describe.skip;

describeOptIn("the reference behind Prism's validation proxy", () => {
  let bundle: BundledSpec;
  let reference: ReferenceUnderTest;
  let prisms: RunningPrismProxy[] = [];
  let recorder: FaultProxy;
  let run: IsolatedRun;
  const exchanges: Exchange[] = [];

  const record: Fault = async (request, forward) => {
    const response = await forward(request);
    const violations = violationsOf(response.headers).filter((each) => each.location[0] === 'response');
    delete response.headers['sl-violations'];
    exchanges.push({
      method: request.method,
      path: request.path,
      status: response.status,
      violations,
      answeredByProxy: String(response.headers['content-type'] ?? '').startsWith('application/problem+json'),
      ...(response.status >= 500 ? { failure: response.body.subarray(0, 300).toString('utf8') } : {}),
    });
    return response;
  };

  beforeAll(async () => {
    bundle = await writeBundledSpec(root, 'peer-prism-reference-');
    reference = await startReference(root, 1);
    const { baseUrl, authUrl } = reference.service.urls;
    prisms = await Promise.all([
      startPrismProxy(root, bundle.file, baseUrl),
      startPrismProxy(root, bundle.file, authUrl),
    ]);
    const [api, auth] = prisms;
    if (api === undefined || auth === undefined) throw new Error('no prism proxy');
    recorder = await startFaultProxy({ baseUrl: api.url, authUrl: auth.url }, record);
    run = await runIsolated(
      root,
      reference.targetAt({ baseUrl: recorder.baseUrl, authUrl: recorder.authUrl }),
      httpFiles,
      600_000,
    );
    const statuses = new Map<number, number>();
    for (const exchange of exchanges) statuses.set(exchange.status, (statuses.get(exchange.status) ?? 0) + 1);
    console.log(
      `prism proxy over ${httpFiles.join(', ')}: ${exchanges.length} exchanges in ${(run.durationMs / 1000).toFixed(1)} s; ` +
        `statuses ${[...statuses].map(([status, count]) => `${status}×${count}`).join(' ')}`,
      `; answered by Prism itself: ${exchanges.filter((exchange) => exchange.answeredByProxy).length}`,
    );
  }, 900_000);

  afterAll(async () => {
    await recorder?.close();
    await Promise.all(prisms.map((prism) => prism.stop()));
    await reference?.stop();
    if (bundle) await rm(bundle.directory, { recursive: true, force: true });
  });

  const described = (exchange: Exchange) =>
    `${exchange.method} ${exchange.path} → ${exchange.status}: ${exchange.violations.map((each) => `${each.location.join('.')} ${each.message}`).join('; ')}`;

  it('ran the checks through the proxy', () => {
    expect(run.suiteErrors).toEqual([]);
    expect(exchanges.length).toBeGreaterThan(200);
  });

  it('validates every answer except the OAuth redirects, which Prism cannot proxy', () => {
    // Prism's proxy follows redirects (node-fetch's default): the consent redirect to the client's callback fails
    // there and Prism answers 500 itself. Everything else must reach the reference and be validated.
    const unvalidated = exchanges.filter((exchange) => exchange.answeredByProxy);
    const notRedirects = unvalidated.filter(
      (exchange) =>
        !(exchange.path.startsWith('/oauth/authorize') && /FetchError/.test(exchange.failure ?? '')),
    );
    expect(
      notRedirects.map((exchange) => `${exchange.method} ${exchange.path}: ${exchange.failure}`),
    ).toEqual([]);
    expect(unvalidated.length).toBeLessThan(exchanges.length / 10);
  });

  it('sees no status the operation does not declare', () => {
    const found = exchanges.filter((exchange) =>
      exchange.violations.some((each) => undeclared.test(each.message)),
    );
    expect(found.map(described)).toEqual([]);
  });

  it('sees no answer that breaks the spec', () => {
    const found = exchanges.filter((exchange) =>
      exchange.violations.some((each) => !undeclared.test(each.message)),
    );
    expect(found.map(described)).toEqual([]);
  });
});

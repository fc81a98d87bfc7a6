// The harness against the Prism mock (npm run mock): a mock answers from examples and keeps no state, so the suite
// must report failures (with evidence), not crash. The findings are printed; the README summarises them.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetDescription } from '../conformance/harness/target.js';
import { type RunningMock, startPrismMock } from '../conformance/testing/prism-mock.js';
import { type IsolatedRun, idsWith, runIsolated } from '../conformance/testing/run-isolated.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The REST check files: numbered 10 to 49 (authentication, OAuth and rate limits come after). */
const restFiles = readdirSync(new URL('../conformance/checks/', import.meta.url))
  .filter((name) => /^[1-4]\d-.*\.check\.ts$/.test(name))
  .sort();

/** Well-formed values the mock cannot tell from real ones: Prism checks only that a bearer token is present. */
const wellFormedKey = (kind: 'sk' | 'pk', letter: string) => `tlm_${kind}_${letter.repeat(32)}`;

function mockTarget(url: string): TargetDescription {
  return {
    embedded: false,
    profile: 'full',
    baseUrl: url,
    authUrl: url,
    mqttUrl: null,
    wsUrl: null,
    webhookPublicUrl: null,
    webhookListen: null,
    timeScale: 1,
    slow: false,
    latencyP99Milliseconds: 50,
    fastClock: null,
    keys: {
      freeSecret: wellFormedKey('sk', 'F'),
      paidSecret: wellFormedKey('sk', 'P'),
      paidSecretExtras: [wellFormedKey('sk', 'E')],
      publishable: wellFormedKey('pk', 'P'),
      revoked: wellFormedKey('sk', 'R'),
    },
    oauth: { clientId: 'cl_mock', clientSecret: 'cs_mock', redirectUri: 'http://127.0.0.1/oauth/callback' },
    oauthSecondClient: null,
    oauthPublicClient: null,
    autoApproveConsent: false,
    paidAccountId: null,
  };
}

// Minutes of runs: outside `npm test`'s budget, always in CI (.ci/run sets CONFORMANCE_SLOW=1); locally:
// CONFORMANCE_SLOW=1 npx vitest run tests/conformance-mock.test.ts
const enabled = process.env.CONFORMANCE_SLOW === '1';
if (!enabled) console.log('tests/conformance-mock.test.ts: skipped (set CONFORMANCE_SLOW=1; .ci/run does)');

describe.skipIf(!enabled)('the harness against the Prism mock', () => {
  let mock: RunningMock | undefined;
  let run: IsolatedRun;

  beforeAll(async () => {
    mock = await startPrismMock(root);
    run = await runIsolated(root, mockTarget(mock.url), restFiles);
    const lines = [
      `conformance against the Prism mock (${restFiles.join(', ')}), ${(run.durationMs / 1000).toFixed(1)} s`,
      `failed (${idsWith(run, 'failed').length}): ${idsWith(run, 'failed').join(' ')}`,
      `skipped (${idsWith(run, 'skipped').length}): ${idsWith(run, 'skipped').join(' ')}`,
      `passed (${idsWith(run, 'passed').length}): ${idsWith(run, 'passed').join(' ')}`,
      ...run.suiteErrors.map((error) => `suite error: ${error}`),
    ];
    console.log(lines.join('\n'));
  }, 240_000);

  afterAll(async () => {
    await mock?.stop();
  });

  it('runs every REST check to a verdict: no suite errors, no crash', () => {
    expect(restFiles.length).toBeGreaterThan(0);
    expect(run.suiteErrors).toEqual([]);
    expect(new Set(run.results.map((result) => result.file)).size).toBe(restFiles.length);
  });

  it('reports the mock as failing, with evidence for every failure', () => {
    // A mock answers any id from its examples, never reaches a last page, and serves at its root, not at /v2.
    expect(idsWith(run, 'failed')).toEqual(
      expect.arrayContaining(['ERR-404', 'EP-CURSOR-PAGINATION', 'SVC-BASE-URL-VERSION']),
    );
    for (const result of run.results.filter((each) => each.state === 'failed'))
      expect(result.detail, result.title).toMatch(/\S/);
  });
});

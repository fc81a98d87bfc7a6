import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetDescription } from '../harness/target.js';
import { sampleChecks, sampleRequirements } from '../testing/sample-matrix.js';
import { parseXml, type XmlElement } from '../testing/xml-tree.js';
import { writeReports } from './files.js';
import { buildMatrix, totalsOf } from './results.js';

const scratchRoot = path.resolve(import.meta.dirname, '../../.tmp');
const secret = 'tlm_sk_live_SECRETSECRETSECRET';
const target: TargetDescription = {
  embedded: false,
  profile: 'documented',
  baseUrl: 'http://127.0.0.1:9/v2',
  authUrl: null,
  mqttUrl: null,
  wsUrl: null,
  webhookPublicUrl: null,
  webhookListen: null,
  timeScale: 1,
  slow: false,
  latencyP99Milliseconds: 50,
  fastClock: null,
  keys: {
    freeSecret: secret,
    paidSecret: secret,
    paidSecretExtras: [secret],
    publishable: null,
    revoked: null,
  },
  oauth: { clientId: 'cl_x', clientSecret: 'cs_SECRETSECRET', redirectUri: 'http://127.0.0.1/cb' },
  oauthSecondClient: {
    clientId: 'cl_y',
    clientSecret: 'cs_SECRETSECOND',
    redirectUri: 'http://127.0.0.1/cb2',
  },
  oauthPublicClient: { clientId: 'cl_SECRETPUBLIC', redirectUri: 'http://127.0.0.1/cb3' },
  autoApproveConsent: false,
  paidAccountId: null,
};

const rows = buildMatrix(sampleRequirements, sampleChecks);
const totals = totalsOf(rows, 0);
let directory = '';
let written: string[] = [];

beforeAll(async () => {
  await mkdir(scratchRoot, { recursive: true });
  directory = await mkdtemp(path.join(scratchRoot, 'reports-'));
  written = await writeReports(path.join(directory, 'nested', 'report'), rows, totals, target);
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const read = (name: string) => readFile(path.join(directory, 'nested', 'report', name), 'utf8');
const childrenNamed = (element: XmlElement, name: string) =>
  element.children.filter((child) => child.name === name);

describe('writeReports', () => {
  it('creates the directory and writes report.json, junit.xml and report.html', () => {
    expect(written.map((file) => path.basename(file))).toEqual(['report.json', 'junit.xml', 'report.html']);
  });

  it('writes JUnit XML that is well-formed, with one testcase per requirement', async () => {
    const root = parseXml(await read('junit.xml'));
    expect(root.name).toBe('testsuites');
    const [suite, ...others] = childrenNamed(root, 'testsuite');
    expect(others).toHaveLength(0);
    if (suite === undefined) throw new Error('no testsuite');
    expect(suite.attributes).toMatchObject({ name: 'conformance', tests: '5', failures: '1', skipped: '2' });
    const cases = childrenNamed(suite, 'testcase');
    expect(cases.map((testcase) => testcase.attributes.name)).toEqual(rows.map((row) => row.requirement.id));
    expect(cases.map((testcase) => testcase.attributes.classname)).toEqual([
      'rest.documented',
      'oauth.documented',
      'webhooks.erratum',
      'mqtt.documented',
      'rest.inferred',
    ]);
    const inner = cases.map((testcase) => testcase.children.map((child) => child.name).join(','));
    expect(inner).toEqual(['', 'failure', 'skipped', 'skipped', '']);
  });

  it('carries the statement and the evidence of a failure, escaped and intact', async () => {
    const suite = childrenNamed(parseXml(await read('junit.xml')), 'testsuite')[0];
    const failure = suite?.children[1]?.children[0];
    expect(failure?.attributes.message).toBe('Statement of REQ-FAILED <with> "markup" & more');
    expect(failure?.text).toBe('expected status 401 <got> 200 & "more"\n  request: {}');
    const skipped = suite?.children.map((testcase) => testcase.children[0]?.attributes.message);
    expect(skipped?.[2]).toBe('no webhook public URL given');
    expect(skipped?.[3]).toBe('not covered by any check yet');
  });

  it('writes the matrix and totals as JSON without any credential', async () => {
    const text = await read('report.json');
    expect(text).not.toContain('SECRET');
    const report = JSON.parse(text) as {
      totals: unknown;
      requirements: Array<{ requirement: { id: string }; status: string }>;
      target: {
        keys: Record<string, string>;
        oauth: unknown;
        oauthSecondClient: unknown;
        oauthPublicClient: unknown;
        baseUrl: string;
      };
    };
    expect(report.totals).toEqual(totals);
    expect(report.requirements.map((row) => [row.requirement.id, row.status])).toEqual(
      rows.map((row) => [row.requirement.id, row.status]),
    );
    expect(Object.values(report.target.keys)).toEqual([
      '(given)',
      '(given)',
      '(given)',
      '(given)',
      '(given)',
    ]);
    expect(report.target.oauth).toBe('(given)');
    expect(report.target.oauthSecondClient).toBe('(given)');
    expect(report.target.oauthPublicClient).toBe('(given)');
    expect(report.target.baseUrl).toBe(target.baseUrl);
  });

  it('writes an HTML page with the totals and escaped evidence, and no credential', async () => {
    const text = await read('report.html');
    expect(text).not.toContain('SECRET');
    expect(text).toContain('2 passed, 1 failed, 1 skipped, 1 not covered');
    expect(text).not.toContain('<got>');
    expect(text).toContain('&#60;got&#62;');
  });

  it('groups the HTML by surface with a summary bar, links each pointer into spec/, and draws a timeline', async () => {
    const text = await read('report.html');
    for (const surface of ['rest', 'oauth', 'webhooks', 'mqtt'])
      expect(text).toContain(`<h2>${surface}</h2>`);
    expect(text.match(/class="bar"/g)?.length).toBe(5);
    expect(text).toContain('<details class="row" id="REQ-FAILED">');
    const { htmlReport } = await import('./html.js');
    const withTimeline = htmlReport(
      [
        {
          ...rows[0],
          requirement: { ...rows[0]?.requirement, pointers: ['openapi.yaml#/x-webhook-delivery/method'] },
          checks: [
            {
              ...sampleChecks[0],
              evidence: [
                {
                  label: 'timeline',
                  data: {
                    kind: 'timeline',
                    scale: 3600,
                    schedule: [60, 300],
                    attempts: [
                      { at: 1000, answer: 500 },
                      { at: 1017, answer: 500 },
                    ],
                  },
                },
              ],
            },
          ],
        } as (typeof rows)[number],
      ],
      totals,
      target,
    );
    expect(withTimeline).toContain('<a href="../spec/openapi.yaml" title="/x-webhook-delivery/method">');
    expect(withTimeline).toContain('<svg');
    expect(withTimeline.match(/<circle/g)?.length).toBe(2);
    expect(withTimeline.match(/stroke-dasharray/g)?.length).toBe(3);
  });
});

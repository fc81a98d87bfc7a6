import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { qualityMembers } from '../generated/types/facts.js';
import type { RunResult } from '../load/runner/result.js';
import { mosquittoBinary } from '../load/runner/targets/mosquitto.js';
import { chromiumPath, launchChromium } from './support/browser.js';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(root, 'tests/fixtures/load');
const reportDirs: string[] = [];
const channelRate = (quality: keyof typeof qualityMembers) => qualityMembers[quality].sampleRateHz;

afterAll(async () => {
  await Promise.all(reportDirs.map((directory) => rm(directory, { recursive: true, force: true })));
});

/** `npm run load -- …` as a user runs it (without npm's own start-up), with its exit code and reports. */
async function runLoad(...args: string[]): Promise<{
  code: number | null;
  output: string;
  result: RunResult | null;
  html: string;
  reportDir: string;
}> {
  const reportDir = await mkdtemp(path.join(tmpdir(), 'load-report-'));
  reportDirs.push(reportDir);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'load/runner/cli.ts', ...args, '--report-dir', reportDir],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const read = (file: string) => readFile(path.join(reportDir, file), 'utf8').catch(() => '');
  const json = await read('result.json');
  return {
    code,
    output,
    result: json === '' ? null : (JSON.parse(json) as RunResult),
    html: await read('report.html'),
    reportDir,
  };
}

/** The report opened in headless Chromium, offline: both uPlot charts draw, nothing is fetched, no script error. */
async function expectPlotsRender(file: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`file://${file}`);
    await page.waitForSelector('#throughput canvas');
    expect(await page.locator('.uplot canvas').count()).toBe(2);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
  } finally {
    await browser.close();
  }
}

describe('npm run load', () => {
  it('runs ingest and REST against the embedded reference: every owed sample accounted for, exactly the request beyond the limit is 429, exit 0', async () => {
    const { code, output, result, html, reportDir } = await runLoad(
      path.join(fixtures, 'rest-smoke.yaml'),
      '--warmup',
      '1',
    );
    expect(output).toMatch(/^\s+1s {2}sent \d+\/s {2}recv \d+\/s {2}lost \d+ {2}p99 /m);
    expect(output).toMatch(/^\s+\d+s {2}sent .+ {2}rest \d+\/s {2}rest p99 /m);
    const ingest = result?.ingest;
    const owed = 2 * channelRate('high') * 3;
    // The schedule is sent whole (late if need be), warm-up samples are not counted, and loss is what did not arrive.
    expect(ingest?.pacing).toMatchObject({ scheduled: owed, sent: owed });
    expect(ingest?.sent).toBe(owed);
    expect(ingest?.expected).toBe(owed);
    expect((ingest?.received ?? 0) + (ingest?.lost ?? 0)).toBe(owed);
    expect(ingest).toMatchObject({ duplicated: 0, reordered: 0 });
    // The embedded reference says what its ingest shed under overload (x-ingest-rules.overload); a broker cannot.
    expect(result?.targetShedding).toEqual({
      shedMessages: expect.any(Number),
      refusedConnections: expect.any(Number),
      episodes: expect.any(Number),
    });
    expect(output).toContain('✓ rest_429_beyond_limit == 1 (actual 1)');
    expect(code, output).toBe(0);
    expect(result?.rest?.requests).toBe(result?.rest?.pacing.scheduled);
    expect(result?.rest?.byStatus['429']).toBe(1);
    expect(result?.rest?.errors).toBe(0);
    expect(html).toContain('uPlot');
    expect(html).not.toMatch(/<script[^>]+src=/);
    if (chromiumPath !== '') await expectPlotsRender(path.join(reportDir, 'report.html'));
  }, 180_000);

  it.skipIf(mosquittoBinary() === null)(
    'drives Mosquitto with MQTT subscribers: nothing lost, and a threshold it cannot meet makes the exit code 1',
    async () => {
      const { code, output, result } = await runLoad(
        path.join(fixtures, 'ingest-impossible.yaml'),
        '--target',
        'mosquitto',
      );
      expect(result?.ingest).toMatchObject({ lost: 0, reordered: 0, duplicated: 0, subscribers: 4 });
      expect(result?.targetShedding).toBeNull();
      expect(result?.ingest?.expected).toBe((result?.ingest?.sent ?? 0) * 2);
      expect(result?.thresholds.find((verdict) => verdict.name === 'latency_ms p99')?.passed).toBe(false);
      expect(code, output).toBe(1);
    },
    120_000,
  );

  it('answers bad input with one line and exit code 2', async () => {
    const unknown = await runLoad('no-such-scenario');
    expect(unknown.code).toBe(2);
    expect(unknown.output).toMatch(/^load: no scenario "no-such-scenario"/m);
    const badTarget = await runLoad('ingest-1khz', '--target', 'ftp://example');
    expect(badTarget.code).toBe(2);
    expect(badTarget.output).toMatch(/^load: --target must be/m);
    const noRestOnBroker = await runLoad('rate-limit', '--target', 'mqtt://127.0.0.1:1');
    expect(noRestOnBroker.code).toBe(2);
    expect(noRestOnBroker.output).toMatch(/no REST API/);
    // One driver thread per role: each thread loads the drivers through tsx, and one is enough to meet the refusal.
    const deadBroker = await runLoad(
      path.join(fixtures, 'ingest-impossible.yaml'),
      '--target',
      'mqtt://127.0.0.1:1',
      '--workers',
      '1',
    );
    expect(deadBroker.code).toBe(2);
    expect(deadBroker.output).toMatch(
      /^load: a broker mqtt:\/\/127\.0\.0\.1:1 driver could not connect: .*ECONNREFUSED/m,
    );
    // Four start-ups of the CLI: slow on a loaded machine.
  }, 180_000);
});

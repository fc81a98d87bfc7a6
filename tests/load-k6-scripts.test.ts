import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfigFile, resolveConfig } from '../generators/config.js';
import { loadPlans } from '../generators/emitters/load/scenario-plan.js';
import { buildModel } from '../generators/ir/build-model.js';
import { loadSpecs } from '../generators/load/load-specs.js';
import type { Problem } from '../generators/problems.js';
import { listScenarios, loadScenario } from '../load/runner/load-scenario.js';
import { resolveScenario } from '../load/runner/resolve-scenario.js';

const root = path.resolve(import.meta.dirname, '..');
const scriptsDir = path.join(root, 'generated/load');
const tsc = path.join(root, 'node_modules/.bin/tsc');
const run = promisify(execFile);
const scratch: string[] = [];

afterAll(() => {
  for (const directory of scratch) rmSync(directory, { recursive: true, force: true });
});

const scripts = readdirSync(scriptsDir).filter((file) => file.endsWith('.k6.ts'));
/** The module every script imports (k6 resolves relative imports). */
const helperModule = 'k6-load.ts';
const read = (file: string) => readFileSync(path.join(scriptsDir, file), 'utf8');

function optionsOf(script: string) {
  const match = /export const options: Options = (\{[\s\S]*?\n\});/.exec(script);
  if (match === null) throw new Error('no options literal');
  return JSON.parse(match[1] as string) as {
    scenarios: Record<string, Record<string, unknown>>;
    thresholds: Record<string, string[]>;
  };
}

async function typeCheck(project: string): Promise<{ ok: boolean; output: string }> {
  try {
    await run(tsc, ['-p', project], { cwd: root });
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout) };
  }
}

describe('generated k6 scripts (k6 cannot run here: checked statically)', () => {
  it('exist for every scenario', () => {
    expect(scripts.map((file) => file.replace(/\.k6\.ts$/, '')).sort()).toEqual(listScenarios());
  });

  it('type-check against @types/k6 (and the k6/x/mqtt declaration of load/k6)', async () => {
    const { ok, output } = await typeCheck('load/k6/tsconfig.json');
    expect(output).toBe('');
    expect(ok).toBe(true);
  }, 120_000);

  it('would fail the type-check with an invalid option (the check can fail)', async () => {
    const directory = mkdtempSync(path.join(root, 'load/k6/.check-'));
    scratch.push(directory);
    const broken = read('ingest-1khz.k6.ts').replace(/"rate": \d+,/, '"rate": "fast",');
    writeFileSync(path.join(directory, 'broken.k6.ts'), broken);
    cpSync(path.join(root, 'load/k6/k6-x-mqtt.d.ts'), path.join(directory, 'k6-x-mqtt.d.ts'));
    cpSync(path.join(scriptsDir, helperModule), path.join(directory, helperModule));
    const config = JSON.parse(readFileSync(path.join(root, 'load/k6/tsconfig.json'), 'utf8'));
    writeFileSync(
      path.join(directory, 'tsconfig.json'),
      JSON.stringify({ ...config, include: ['broken.k6.ts'] }),
    );
    const { ok, output } = await typeCheck(path.relative(root, path.join(directory, 'tsconfig.json')));
    expect(ok).toBe(false);
    expect(output).toMatch(/broken\.k6\.ts\(\d+,\d+\): error TS2322/);
  }, 120_000);

  it.each(scripts)('%s imports only k6 modules and the shared helper module', (file) => {
    const specifiers = [...read(file).matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((match) => match[1]);
    expect(specifiers).toContain(`./${helperModule}`);
    for (const specifier of specifiers) expect(specifier).toMatch(/^(k6(\/[a-z0-9/-]+)?|\.\/k6-load\.ts)$/);
  });

  it('the shared helper module imports only k6 modules, and no script repeats its code', () => {
    const helper = read(helperModule);
    const specifiers = [...helper.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((match) => match[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    for (const specifier of specifiers) expect(specifier).toMatch(/^k6(\/[a-z0-9/-]+)?$/);
    for (const file of scripts) expect(read(file)).not.toMatch(/function msgpackSample|new Counter\(/);
  });

  it.each(scripts)('%s: thresholds are valid k6 expressions on metrics of the right kind', (file) => {
    const script = read(file);
    const kinds = new Map<string, string>([
      ['dropped_iterations', 'Counter'],
      ['http_req_duration', 'Trend'],
    ]);
    for (const match of read(helperModule).matchAll(/new (Counter|Rate|Trend)\('([a-z_]+)'/g))
      kinds.set(match[2] as string, match[1] as string);
    const aggregations: Record<string, RegExp> = {
      Counter: /^(count|rate)$/,
      Rate: /^rate$/,
      Trend: /^(avg|min|max|med|p\(\d+(\.\d+)?\))$/,
    };
    const { thresholds } = optionsOf(script);
    expect(Object.keys(thresholds).length).toBeGreaterThan(0);
    for (const [metric, expressions] of Object.entries(thresholds)) {
      const kind = kinds.get(metric.replace(/\{.*\}$/, ''));
      expect(kind, metric).toBeDefined();
      for (const expression of expressions) {
        const parsed = /^(\S+?)\s*(<=|<|>=|>|===|==|!=)\s*(\d+(\.\d+)?)$/.exec(expression);
        expect(parsed, expression).not.toBeNull();
        expect(parsed?.[1]).toMatch(aggregations[kind as string] as RegExp);
      }
    }
  });

  it.each(listScenarios())(
    '%s: the script carries the rates the Node runner resolves from the spec',
    (name) => {
      const resolved = resolveScenario(loadScenario(name));
      const { scenarios } = optionsOf(read(`${name}.k6.ts`));
      const devices = Object.entries(scenarios).filter(([key]) => key.startsWith('device_'));
      expect(devices.length).toBe(resolved.ingest?.section.streams ?? 0);
      for (const [, device] of devices) {
        expect(device.maxVUs).toBe(1);
        const rate = (device.rate ?? (device.stages as Array<{ target: number }>).at(-1)?.target) as number;
        expect(rate / (device.timeUnit === '1m' ? 60 : 1)).toBeCloseTo(resolved.ingest?.ratePerStream ?? 0);
        expect(device.executor).toBe(
          resolved.profile.stages.length === 0 ? 'constant-arrival-rate' : 'ramping-arrival-rate',
        );
      }
      const rest = resolved.rest;
      if (rest === null) return expect(scenarios.rest).toBeUndefined();
      const restScenario = scenarios.rest as Record<string, unknown>;
      if (rest.requestsPerKey !== null)
        return expect(restScenario.rate).toBe(rest.requestsPerKey * rest.section.keys);
      const stages = (restScenario.stages ?? []) as Array<{ target: number }>;
      const restRate = (restScenario.rate ?? stages.at(-1)?.target) as number;
      expect(restRate / (restScenario.timeUnit === '1m' ? 60 : 1)).toBeCloseTo(
        rest.ratePerKey * rest.section.keys,
        1,
      );
    },
  );

  it('the load emitter reports a broken scenario with its pointer instead of rendering it', async () => {
    const config = resolveConfig(await loadConfigFile(null, root), root);
    const model = buildModel((await loadSpecs(config)).input, []);
    const directory = mkdtempSync(path.join(root, 'load/k6/.scenarios-'));
    scratch.push(directory);
    writeFileSync(
      path.join(directory, 'bad.yaml'),
      'name: bad\ndescription: x\ndurationSeconds: 5\ningest: { streams: 1, quality: ultra, format: json, subscribersPerStream: 1 }\nthresholds: { lossRatioMax: 0 }\n',
    );
    const problems: Problem[] = [];
    const plans = loadPlans(
      model,
      { scenarios: directory, schema: config.load?.schema ?? '' },
      root,
      problems,
    );
    expect(plans).toEqual([]);
    expect(problems).toEqual([
      expect.objectContaining({ severity: 'error', pointer: '/ingest/quality', rule: 'load/scenario' }),
    ]);
  }, 120_000);
});

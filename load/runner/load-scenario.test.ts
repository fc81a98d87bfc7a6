import { describe, expect, it } from 'vitest';
import { accountPlanMembers, apiPolicies, channelFacts } from '../../generated/types/facts.js';
import { listScenarios, loadScenario, ScenarioError, validateScenario } from './load-scenario.js';
import { resolveScenario } from './resolve-scenario.js';

const minimal = {
  name: 'tiny',
  description: 'one stream',
  durationSeconds: 5,
  ingest: { streams: 1, quality: 'low', format: 'json', subscribersPerStream: 1 },
  thresholds: { lossRatioMax: 0 },
};

describe('scenario schema', () => {
  it.each(listScenarios())('load/scenarios/%s.yaml is valid and resolves', (name) => {
    const scenario = loadScenario(name);
    expect(scenario.name).toBe(name);
    expect(() => resolveScenario(scenario)).not.toThrow();
  });

  it('knows the five scenarios the issue asks for', () => {
    expect(listScenarios()).toEqual(
      expect.arrayContaining(['ingest-1khz', 'fanout', 'mixed', 'rate-limit', 'soak']),
    );
  });

  const invalid: Array<[string, unknown, RegExp]> = [
    [
      'a number instead of a quality',
      { ...minimal, ingest: { ...minimal.ingest, quality: 1000 } },
      /\/ingest\/quality .*low, medium, high/,
    ],
    ['an unknown field', { ...minimal, rate: 5 }, /\(top level\) must NOT have additional properties "rate"/],
    ['no thresholds', { ...minimal, thresholds: {} }, /\/thresholds must NOT have fewer than 1 properties/],
    ['neither ingest nor rest', { ...minimal, ingest: undefined }, /must match a schema in anyOf/],
    [
      'an unknown operation',
      { ...minimal, rest: { plan: 'paid', keys: 1, mix: [{ operation: 'dropTables', weight: 1 }] } },
      /\/rest\/mix\/0\/operation/,
    ],
    [
      'a plan the spec does not have',
      { ...minimal, rest: { plan: 'gold', keys: 1, mix: [{ operation: 'getAccount', weight: 1 }] } },
      /\/rest\/plan/,
    ],
    [
      'a rate and beyond-limit together',
      {
        ...minimal,
        rest: {
          plan: 'paid',
          keys: 1,
          percentOfLimit: 50,
          beyondLimitPerKey: 1,
          mix: [{ operation: 'getAccount', weight: 1 }],
        },
      },
      /\/rest must NOT be valid/,
    ],
    ['a ramp above 100%', { ...minimal, stages: [{ seconds: 1, percent: 150 }] }, /\/stages\/0\/percent/],
    ['zero duration', { ...minimal, durationSeconds: 0 }, /\/durationSeconds must be >= 1/],
  ];
  it.each(invalid)('refuses %s, naming where', (_name, data, message) => {
    const cleaned = JSON.parse(JSON.stringify(data));
    expect(() => validateScenario(cleaned, 'test.yaml')).toThrow(ScenarioError);
    expect(() => validateScenario(cleaned, 'test.yaml')).toThrow(message);
  });

  it('answers an unknown scenario name with the known ones', () => {
    expect(() => loadScenario('no-such-scenario')).toThrow(
      /no scenario "no-such-scenario".*known: .*ingest-1khz/,
    );
  });
});

describe('resolveScenario: numbers from the spec, never from the scenario', () => {
  it('takes the stream rate from the quality and the key rate from the plan', () => {
    const resolved = resolveScenario(loadScenario('mixed'));
    const medium = channelFacts.deviceTelemetry.qualityRates.oneOf.find(
      (member) => member.const === 'medium',
    );
    expect(resolved.ingest?.ratePerStream).toBe(medium?.sampleRateHz);
    expect(resolved.rest?.ratePerKey).toBeCloseTo(
      accountPlanMembers.paid.requestsPerMinute / apiPolicies.rateLimit.windowSeconds,
    );
  });

  it('rate-limit: exactly the plan limit plus one per key, spread so the last is due at the end', () => {
    const resolved = resolveScenario(loadScenario('rate-limit'), 10);
    expect(resolved.rest?.requestsPerKey).toBe(accountPlanMembers.paid.requestsPerMinute + 1);
    expect((resolved.rest?.ratePerKey ?? 0) * resolved.profile.area(10)).toBeCloseTo(
      accountPlanMembers.paid.requestsPerMinute + 1,
    );
  });

  it('refuses a beyond-limit run longer than one rate window', () => {
    expect(() => resolveScenario(loadScenario('rate-limit'), apiPolicies.rateLimit.windowSeconds)).toThrow(
      RangeError,
    );
  });

  it('--seconds replaces the hold, ramps come first', () => {
    const scenario = loadScenario('mixed');
    const ramp = (scenario.stages ?? []).reduce((sum, stage) => sum + stage.seconds, 0);
    expect(ramp).toBeGreaterThan(0);
    expect(resolveScenario(scenario, 10).profile.totalSeconds).toBe(ramp + 10);
  });
});

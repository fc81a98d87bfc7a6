import { describe, expect, it } from 'vitest';
import {
  helpText,
  hostAndPort,
  InputError,
  inputs,
  isOn,
  numberOf,
  profileOf,
  readInputs,
  switches,
} from './inputs.js';

describe('inputs', () => {
  it('give every input a kebab-case flag and a TELEMETRY_ variable, both unique', () => {
    const flags = inputs.map(([flag]) => flag);
    const variables = inputs.map(([, variable]) => variable);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(variables).size).toBe(variables.length);
    for (const flag of flags) expect(flag).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
    for (const variable of variables) expect(variable).toMatch(/^TELEMETRY_[A-Z0-9_]+$/);
  });

  it('are all listed by --help, each flag on one line with its variable', () => {
    const lines = helpText().split('\n');
    for (const [flag, variable, text] of inputs) {
      const line = lines.find((candidate) => candidate.startsWith(`  --${flag} `));
      expect(line, flag).toBeDefined();
      expect(line).toContain(variable);
      expect(line).toContain(text);
    }
    expect(helpText()).toContain('N passed, N failed, N skipped, N not covered');
  });
});

describe('readInputs', () => {
  const environment = {
    TELEMETRY_BASE_URL: 'http://from-environment/v2',
    TELEMETRY_PAID_SECRET_KEY: 'environment-key',
    TELEMETRY_PROFILE: 'full',
    UNRELATED: 'x',
  };

  it('takes each input from its flag before its environment variable', () => {
    const values = readInputs({ 'base-url': 'http://from-flag/v2', profile: undefined }, environment);
    expect(values).toEqual({
      'base-url': 'http://from-flag/v2',
      'paid-key': 'environment-key',
      profile: 'full',
    });
  });

  it('reads every input from its variable when no flag is given', () => {
    const every = Object.fromEntries(inputs.map(([flag, variable]) => [variable, `value of ${flag}`]));
    const values = readInputs({}, every);
    expect(values).toEqual(Object.fromEntries(inputs.map(([flag]) => [flag, `value of ${flag}`])));
  });

  it('treats an empty value as not given; an empty flag still wins, so it unsets the variable', () => {
    expect(readInputs({}, { TELEMETRY_FREE_SECRET_KEY: '' })).toEqual({});
    expect(readInputs({ 'paid-key': '' }, environment)['paid-key']).toBeUndefined();
  });
});

describe('profileOf', () => {
  it('defaults to full for the embedded reference and documented for a deployment', () => {
    expect(profileOf({}, true)).toBe('full');
    expect(profileOf({}, false)).toBe('documented');
  });

  it('takes the given profile either way', () => {
    expect(profileOf({ profile: 'documented' }, true)).toBe('documented');
    expect(profileOf({ profile: 'full' }, false)).toBe('full');
  });

  it('refuses any other profile with an input error', () => {
    expect(() => profileOf({ profile: 'strict' }, false)).toThrow(InputError);
    expect(() => profileOf({ profile: 'strict' }, false)).toThrow(/documented or full/);
  });
});

describe('switches, numbers and addresses', () => {
  it('knows --slow, --allow-uncovered, --verbose and --bail as switches, on for 1 or true', () => {
    expect([...switches].sort()).toEqual(['allow-uncovered', 'bail', 'slow', 'verbose']);
    expect(isOn({ slow: 'true' }, 'slow')).toBe(true);
    expect(isOn({ slow: '1' }, 'slow')).toBe(true);
    expect(isOn({ slow: '0' }, 'slow')).toBe(false);
    expect(isOn({}, 'slow')).toBe(false);
  });

  it('reads a positive number or its default, and refuses anything else', () => {
    expect(numberOf({ 'time-scale': '3600' }, 'time-scale', 1)).toBe(3600);
    expect(numberOf({}, 'time-scale', 1)).toBe(1);
    expect(() => numberOf({ 'time-scale': '0' }, 'time-scale', 1)).toThrow(/--time-scale must be a positive/);
    expect(() => numberOf({ 'latency-p99-ms': 'fast' }, 'latency-p99-ms', 50)).toThrow(InputError);
  });

  it('reads host:port, IPv6 in brackets, and refuses a bare host', () => {
    expect(hostAndPort({ 'webhook-listen': '0.0.0.0:8080' }, 'webhook-listen')).toEqual({
      host: '0.0.0.0',
      port: 8080,
    });
    expect(hostAndPort({ 'webhook-listen': '[::1]:0' }, 'webhook-listen')).toEqual({ host: '::1', port: 0 });
    expect(hostAndPort({}, 'webhook-listen')).toBeNull();
    expect(() => hostAndPort({ 'webhook-listen': 'localhost' }, 'webhook-listen')).toThrow(/host:port/);
    expect(() => hostAndPort({ 'webhook-listen': 'h:70000' }, 'webhook-listen')).toThrow(InputError);
  });
});

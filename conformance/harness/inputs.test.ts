import { describe, expect, it } from 'vitest';
import { helpText, InputError, inputs, profileOf, readInputs } from './inputs.js';

describe('inputs', () => {
  it('give every input a kebab-case flag and a TELEMETRY_ variable, both unique', () => {
    const flags = inputs.map(([flag]) => flag);
    const variables = inputs.map(([, variable]) => variable);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(variables).size).toBe(variables.length);
    for (const flag of flags) expect(flag).toMatch(/^[a-z]+(-[a-z]+)*$/);
    for (const variable of variables) expect(variable).toMatch(/^TELEMETRY_[A-Z_]+$/);
  });

  it('are all listed by --help, each flag on one line with its variable', () => {
    const lines = helpText().split('\n');
    for (const [flag, variable, text] of inputs) {
      const line = lines.find((candidate) => candidate.startsWith(`  --${flag} `));
      expect(line, flag).toBeDefined();
      expect(line).toContain(variable);
      expect(line).toContain(text);
    }
    expect(helpText()).toContain('N passed, N failed, N skipped');
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

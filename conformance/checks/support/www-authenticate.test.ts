import { describe, expect, it } from 'vitest';
import { bearerChallenge, parseChallenges } from './www-authenticate.js';

const parametersOf = (value: string) => {
  const parameters = bearerChallenge(value);
  return parameters === null ? null : Object.fromEntries(parameters);
};

describe('bearerChallenge', () => {
  it.each([
    ['realm only', 'Bearer realm="telemetry"', { realm: 'telemetry' }],
    [
      'error and scope',
      'Bearer realm="telemetry", error="insufficient_scope", scope="streams:write reports:read"',
      { realm: 'telemetry', error: 'insufficient_scope', scope: 'streams:write reports:read' },
    ],
    ['bare scheme', 'Bearer', {}],
    ['scheme and names in any case, token values', 'bearer Error=invalid_token', { error: 'invalid_token' }],
    ['whitespace around = and commas', 'Bearer realm = "a" ,, error="x"', { realm: 'a', error: 'x' }],
    ['escaped quote', 'Bearer realm="say \\"hi\\""', { realm: 'say "hi"' }],
    [
      'another challenge after it',
      'Bearer realm="a", error="x", Basic realm="b"',
      { realm: 'a', error: 'x' },
    ],
    ['another challenge before it', 'Basic realm="b", Bearer realm="a"', { realm: 'a' }],
    ['text glued to a parameter', 'Bearer realm="telemetry"Stryker was here!', null],
    ['parameters without a comma', 'Bearer realm="a" error="x"', null],
    ['a parameter twice', 'Bearer error="a", error="b"', null],
    ['no space after the scheme', 'Bearer,realm="a"x', null],
    ['unterminated quote', 'Bearer realm="a', null],
    ['no Bearer challenge', 'Basic realm="b"', null],
    ['two Bearer challenges', 'Bearer realm="a", Bearer realm="b"', null],
    ['empty', '', null],
  ])('%s', (_name, given, want) => {
    expect(parametersOf(given)).toEqual(want);
  });

  it('reads a token68 challenge as one without parameters', () => {
    expect(parseChallenges('Negotiate abc==, Bearer realm="a"')).toEqual([
      { scheme: 'Negotiate', parameters: new Map() },
      { scheme: 'Bearer', parameters: new Map([['realm', 'a']]) },
    ]);
  });
});

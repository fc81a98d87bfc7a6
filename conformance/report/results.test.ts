import { describe, expect, it } from 'vitest';
import { sampleCheck, sampleChecks, sampleRequirements } from '../testing/sample-matrix.js';
import { buildMatrix, exitCodeOf, headline, statusOf, totalsOf, uncoveredInProfile } from './results.js';

describe('statusOf', () => {
  it('is not covered without checks', () => {
    expect(statusOf([])).toBe('not covered');
  });

  it('fails when any check failed, whatever the others did', () => {
    expect(statusOf([sampleCheck(['A'], 'passed'), sampleCheck(['A'], 'failed')])).toBe('failed');
    expect(statusOf([sampleCheck(['A'], 'skipped'), sampleCheck(['A'], 'failed')])).toBe('failed');
  });

  it('passes when one check passed and none failed, even beside skipped ones', () => {
    expect(statusOf([sampleCheck(['A'], 'skipped'), sampleCheck(['A'], 'passed')])).toBe('passed');
  });

  // mqttTopic's shape proves nothing while no broker answers at it.
  it('is skipped when an essential check was skipped, although another passed', () => {
    const live = { ...sampleCheck(['A'], 'skipped'), essential: true };
    expect(statusOf([sampleCheck(['A'], 'passed'), live])).toBe('skipped');
    expect(statusOf([sampleCheck(['A'], 'passed'), { ...live, state: 'passed' as const }])).toBe('passed');
    expect(statusOf([sampleCheck(['A'], 'failed'), live])).toBe('failed');
  });

  it('is skipped when every check was skipped: never passed by default', () => {
    expect(statusOf([sampleCheck(['A'], 'skipped'), sampleCheck(['A'], 'skipped')])).toBe('skipped');
  });
});

describe('buildMatrix and totalsOf', () => {
  const rows = buildMatrix(sampleRequirements, sampleChecks);

  it('has one row per requirement, in catalogue order, with the checks that name it', () => {
    expect(rows.map((row) => [row.requirement.id, row.status, row.checks.length])).toEqual([
      ['REQ-PASSED', 'passed', 1],
      ['REQ-FAILED', 'failed', 2],
      ['REQ-SKIPPED', 'skipped', 1],
      ['REQ-UNCOVERED', 'not covered', 0],
      ['INF-PASSED', 'passed', 1],
    ]);
  });

  it('ignores checks of ids the catalogue does not have', () => {
    const more = buildMatrix(sampleRequirements, [
      ...sampleChecks,
      sampleCheck(['NOT-IN-CATALOGUE'], 'failed'),
    ]);
    expect(more.map((row) => row.status)).toEqual(rows.map((row) => row.status));
  });

  it('counts each status, and suite errors as failures', () => {
    expect(totalsOf(rows, 0)).toEqual({ passed: 2, failed: 1, skipped: 1, notCovered: 1, suiteErrors: 0 });
    expect(totalsOf(rows, 2)).toEqual({ passed: 2, failed: 3, skipped: 1, notCovered: 1, suiteErrors: 2 });
  });
});

describe('headline and exit code', () => {
  const rows = buildMatrix(sampleRequirements, sampleChecks);

  it('reads N passed, N failed, N skipped, N not covered', () => {
    expect(headline(totalsOf(rows, 0))).toBe('2 passed, 1 failed, 1 skipped, 1 not covered');
  });

  it('exits 1 on a failure, and on an uncovered requirement of the profile unless allowed', () => {
    const passing = buildMatrix(
      sampleRequirements,
      sampleChecks.filter((check) => check.state !== 'failed'),
    );
    expect(exitCodeOf(rows, totalsOf(rows, 0), 'full', true)).toBe(1);
    expect(uncoveredInProfile(passing, 'full').map((row) => row.requirement.id)).toEqual(['REQ-UNCOVERED']);
    expect(exitCodeOf(passing, totalsOf(passing, 0), 'full', false)).toBe(1);
    expect(exitCodeOf(passing, totalsOf(passing, 0), 'full', true)).toBe(0);
    const covered = passing.filter((row) => row.status !== 'not covered');
    expect(exitCodeOf(covered, totalsOf(covered, 0), 'documented', false)).toBe(0);
  });
});

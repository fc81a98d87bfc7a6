import { describe, expect, it } from 'vitest';
import { sampleChecks, sampleRequirements } from '../testing/sample-matrix.js';
import { buildMatrix, totalsOf } from './results.js';
import { terminalReport } from './terminal.js';

const rows = buildMatrix(sampleRequirements, sampleChecks);

describe('terminalReport', () => {
  it('ends with "N passed, N failed, N skipped, N not covered"', () => {
    const lines = terminalReport(rows, totalsOf(rows, 0), []).split('\n');
    expect(lines.at(-1)).toBe('2 passed, 1 failed, 1 skipped, 1 not covered');
    expect(lines.at(-1)).toMatch(/^\d+ passed, \d+ failed, \d+ skipped, \d+ not covered$/);
  });

  it('counts suite errors among the failed on the last line and lists them', () => {
    const text = terminalReport(rows, totalsOf(rows, 1), ['conformance/checks/x.check.ts: boom']);
    expect(text.split('\n').at(-1)).toBe('2 passed, 2 failed, 1 skipped, 1 not covered');
    expect(text).toContain('SUITE ERROR conformance/checks/x.check.ts: boom');
  });

  it('groups rows by surface with a mark per status, and says how much is covered', () => {
    const text = terminalReport(rows, totalsOf(rows, 0), []);
    for (const surface of ['REST', 'OAUTH', 'WEBHOOKS', 'MQTT']) expect(text).toContain(`\n${surface}\n`);
    expect(text).toMatch(/ {2}pass {2}REQ-PASSED +documented/);
    expect(text).toMatch(/ {2}FAIL {2}REQ-FAILED +documented +expected status 401 <got> 200/);
    expect(text).toMatch(/ {2}skip {2}REQ-SKIPPED +erratum +no webhook public URL given/);
    expect(text).toMatch(/ {2}---- {2}REQ-UNCOVERED/);
    expect(text).toContain('coverage: 4 of 5 requirements have checks (1 not covered yet)');
  });

  it('repeats each failure with its statement and full evidence', () => {
    const text = terminalReport(rows, totalsOf(rows, 0), []);
    expect(text).toContain('FAILED REQ-FAILED: Statement of REQ-FAILED');
    expect(text).toContain('  request: {}');
    expect(text.match(/^FAILED /gm)).toHaveLength(1);
  });

  it('reads 0 failed when nothing failed', () => {
    const passing = buildMatrix(
      sampleRequirements,
      sampleChecks.filter((check) => check.state !== 'failed'),
    );
    expect(terminalReport(passing, totalsOf(passing, 0), []).split('\n').at(-1)).toBe(
      '3 passed, 0 failed, 1 skipped, 1 not covered',
    );
  });
});

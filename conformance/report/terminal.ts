import { headline, type RequirementRow, type Totals } from './results.js';

const marks = { passed: 'pass', failed: 'FAIL', skipped: 'skip', 'not covered': '----' } as const;

function firstLine(text: string | null): string {
  return (text ?? '').split('\n')[0]?.slice(0, 160) ?? '';
}

/** The requirement matrix for a terminal, grouped by surface; the last line is the headline. */
export function terminalReport(
  rows: readonly RequirementRow[],
  totals: Totals,
  suiteErrors: readonly string[],
): string {
  const lines: string[] = [];
  const surfaces = [...new Set(rows.map((row) => row.requirement.surface))];
  for (const surface of surfaces) {
    lines.push(`\n${surface.toUpperCase()}`);
    for (const row of rows.filter((candidate) => candidate.requirement.surface === surface)) {
      const failing = row.checks.find((check) => check.state === 'failed');
      const skipped = row.checks.find((check) => check.state === 'skipped');
      const detail =
        row.status === 'failed'
          ? firstLine(failing?.detail ?? null)
          : row.status === 'skipped'
            ? firstLine(skipped?.detail ?? null)
            : '';
      lines.push(
        `  ${marks[row.status]}  ${row.requirement.id.padEnd(58)} ${row.requirement.source.padEnd(10)} ${detail}`,
      );
    }
  }
  for (const row of rows.filter((candidate) => candidate.status === 'failed')) {
    lines.push(`\nFAILED ${row.requirement.id}: ${row.requirement.statement}`);
    for (const check of row.checks.filter((candidate) => candidate.state === 'failed'))
      lines.push(`  ${check.title}\n  ${check.detail ?? ''}`);
  }
  for (const error of suiteErrors) lines.push(`\nSUITE ERROR ${error}`);
  const covered = rows.length - totals.notCovered;
  lines.push(
    `\ncoverage: ${covered} of ${rows.length} requirements have checks (${totals.notCovered} not covered yet)`,
  );
  lines.push(headline(totals));
  return lines.join('\n');
}

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TargetDescription } from '../harness/target.js';
import { htmlReport } from './html.js';
import type { RequirementRow, Totals } from './results.js';

function xml(text: string): string {
  return text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

function junit(rows: readonly RequirementRow[], totals: Totals): string {
  const cases = rows.map((row) => {
    const name = `${row.requirement.id}`;
    const failure = row.checks.find((check) => check.state === 'failed');
    const skipped = row.checks.find((check) => check.state === 'skipped');
    const inner =
      row.status === 'failed'
        ? `<failure message="${xml(row.requirement.statement)}">${xml(failure?.detail ?? '')}</failure>`
        : row.status === 'skipped' || row.status === 'not covered'
          ? `<skipped message="${xml(row.status === 'not covered' ? 'not covered by any check yet' : (skipped?.detail ?? ''))}"/>`
          : '';
    return `    <testcase classname="${row.requirement.surface}.${row.requirement.source}" name="${xml(name)}">${inner}</testcase>`;
  });
  const skipped = totals.skipped + totals.notCovered;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="conformance" tests="${rows.length}" failures="${totals.failed}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

/** Writes report.json, junit.xml and report.html into `directory`; returns their paths. */
export async function writeReports(
  directory: string,
  rows: readonly RequirementRow[],
  totals: Totals,
  target: TargetDescription,
): Promise<string[]> {
  await mkdir(directory, { recursive: true });
  const safeTarget = {
    ...target,
    keys: Object.fromEntries(Object.keys(target.keys).map((name) => [name, '(given)'])),
    oauth: target.oauth === null ? null : '(given)',
    oauthSecondClient: target.oauthSecondClient === null ? null : '(given)',
    oauthPublicClient: target.oauthPublicClient === null ? null : '(given)',
  };
  const files: Array<[string, string]> = [
    ['report.json', `${JSON.stringify({ target: safeTarget, totals, requirements: rows }, null, 2)}\n`],
    ['junit.xml', junit(rows, totals)],
    ['report.html', htmlReport(rows, totals, target)],
  ];
  for (const [name, content] of files) await writeFile(path.join(directory, name), content);
  return files.map(([name]) => path.join(directory, name));
}

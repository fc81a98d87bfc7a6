import type { Requirement } from '../catalogue/requirement.js';

/** One check as it ran. */
export interface CheckResult {
  title: string;
  file: string;
  requirements: string[];
  state: 'passed' | 'failed' | 'skipped';
  /** Failed: the error with its evidence. Skipped: the reason. */
  detail: string | null;
  durationMs: number;
}

export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'not covered';

export interface RequirementRow {
  requirement: Requirement;
  status: RequirementStatus;
  checks: CheckResult[];
}

/** A requirement fails when any of its checks failed, passes when one passed, else is skipped or not covered. */
export function statusOf(checks: readonly CheckResult[]): RequirementStatus {
  if (checks.length === 0) return 'not covered';
  if (checks.some((check) => check.state === 'failed')) return 'failed';
  if (checks.some((check) => check.state === 'passed')) return 'passed';
  return 'skipped';
}

export function buildMatrix(
  requirements: readonly Requirement[],
  checks: readonly CheckResult[],
): RequirementRow[] {
  return requirements.map((requirement) => {
    const covering = checks.filter((check) => check.requirements.includes(requirement.id));
    return { requirement, status: statusOf(covering), checks: covering };
  });
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  notCovered: number;
  /** Checks that ran with a suite error outside any requirement (an unknown id, a crash), counted as failures. */
  suiteErrors: number;
}

export function totalsOf(rows: readonly RequirementRow[], suiteErrors: number): Totals {
  const count = (status: RequirementStatus) => rows.filter((row) => row.status === status).length;
  return {
    passed: count('passed'),
    failed: count('failed') + suiteErrors,
    skipped: count('skipped'),
    notCovered: count('not covered'),
    suiteErrors,
  };
}

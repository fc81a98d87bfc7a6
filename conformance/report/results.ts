import { inProfile, type Profile, type Requirement } from '../catalogue/requirement.js';

/** One check as it ran. */
export interface CheckResult {
  title: string;
  file: string;
  requirements: string[];
  state: 'passed' | 'failed' | 'skipped';
  /** Failed: the error with its evidence. Skipped: the reason. */
  detail: string | null;
  durationMs: number;
  /** A requirement this check names cannot pass while it is skipped (the live check behind a shape check). */
  essential?: boolean;
  /** What the check saw, for the report. */
  evidence?: Array<{ label: string; data: unknown }>;
}

export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'not covered';

export interface RequirementRow {
  requirement: Requirement;
  status: RequirementStatus;
  checks: CheckResult[];
}

/**
 * A requirement fails when any of its checks failed, is skipped when an essential check of it was skipped (a URL's
 * shape is no pass while nothing answers at it), passes when one passed, else is skipped or not covered.
 */
export function statusOf(checks: readonly CheckResult[]): RequirementStatus {
  if (checks.length === 0) return 'not covered';
  if (checks.some((check) => check.state === 'failed')) return 'failed';
  if (checks.some((check) => check.essential === true && check.state === 'skipped')) return 'skipped';
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

/** The closing line of every report: `N passed, N failed, N skipped, N not covered`. */
export function headline(totals: Totals): string {
  return `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped, ${totals.notCovered} not covered`;
}

/** Requirements the profile judges that no check names: a run with any is incomplete. */
export function uncoveredInProfile(rows: readonly RequirementRow[], profile: Profile): RequirementRow[] {
  return rows.filter((row) => row.status === 'not covered' && inProfile(row.requirement, profile));
}

/** 0 when nothing failed and (unless allowed) every requirement of the profile has a check; else 1. */
export function exitCodeOf(
  rows: readonly RequirementRow[],
  totals: Totals,
  profile: Profile,
  allowUncovered: boolean,
): number {
  if (totals.failed > 0) return 1;
  return allowUncovered || uncoveredInProfile(rows, profile).length === 0 ? 0 : 1;
}

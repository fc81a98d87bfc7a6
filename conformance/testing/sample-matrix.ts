import type { Requirement } from '../catalogue/requirement.js';
import type { CheckResult } from '../report/results.js';

/** A requirement for report tests; only id, source and surface matter to them. */
export function sampleRequirement(
  id: string,
  source: Requirement['source'] = 'documented',
  surface: Requirement['surface'] = 'rest',
): Requirement {
  return { id, statement: `Statement of ${id} <with> "markup" & more`, source, pointers: [], surface };
}

export function sampleCheck(
  requirements: string[],
  state: CheckResult['state'],
  detail: string | null = null,
): CheckResult {
  return {
    title: `[${requirements.join(', ')}] a ${state} check`,
    file: 'conformance/checks/10-sample.check.ts',
    requirements,
    state,
    detail,
    durationMs: 3,
  };
}

/** Five requirements, one of each outcome plus an inferred one: passed, failed, skipped, not covered. */
export const sampleRequirements: Requirement[] = [
  sampleRequirement('REQ-PASSED'),
  sampleRequirement('REQ-FAILED', 'documented', 'oauth'),
  sampleRequirement('REQ-SKIPPED', 'erratum', 'webhooks'),
  sampleRequirement('REQ-UNCOVERED', 'documented', 'mqtt'),
  sampleRequirement('INF-PASSED', 'inferred'),
];

export const sampleChecks: CheckResult[] = [
  sampleCheck(['REQ-PASSED', 'INF-PASSED'], 'passed'),
  sampleCheck(['REQ-FAILED'], 'passed'),
  sampleCheck(['REQ-FAILED'], 'failed', 'expected status 401 <got> 200 & "more"\n  request: {}'),
  sampleCheck(['REQ-SKIPPED'], 'skipped', 'no webhook public URL given'),
];

import { it } from 'vitest';
import { inProfile } from '../catalogue/requirement.js';
import { catalogue } from './catalogue.js';
import type { Exchange } from './probe.js';
import { currentTarget } from './target.js';

declare module '@vitest/runner' {
  interface TaskMeta {
    /** The requirement ids a check covers; the report is a matrix of these. */
    requirements?: string[];
    /** The requirements cannot pass while this check is skipped (see statusOf). */
    essential?: boolean;
    /** What the check saw (MQTT packets, WS frames, delivery attempts with times), for the report. */
    evidence?: EvidenceItem[];
  }
}

/** One piece of evidence: a label, and data the HTML report shows (a `timeline` draws attempts on the schedule). */
export interface EvidenceItem {
  label: string;
  data: unknown;
}

/** Evidence kept per check, truncated so a report stays readable. */
const maxEvidenceCharacters = 20_000;

/** A failed expectation with what was sent, what came back and what was expected, for the report. */
export class CheckFailure extends Error {
  constructor(expected: string, exchange: Exchange | null) {
    const evidence =
      exchange === null
        ? ''
        : `\n  request: ${JSON.stringify(exchange.request)}\n  response: ${exchange.response.status} ${JSON.stringify(exchange.response.headers)} ${exchange.response.text}`;
    super(`expected ${expected}${evidence}`);
    this.name = 'CheckFailure';
  }
}

/** Asserts with evidence: `expectThat(condition, 'status 201', exchange)`. */
export function expectThat(
  condition: boolean,
  expected: string,
  exchange: Exchange | null = null,
): asserts condition {
  if (!condition) throw new CheckFailure(expected, exchange);
}

export interface CheckOptions {
  timeout?: number;
  /** Its requirements cannot pass while it is skipped: the live check behind a shape check (mqttTopic, wsUrl). */
  essential?: boolean;
}

export interface CheckContext {
  /** Ends the check as skipped with the reason (the target gave no means to check): never as passed. */
  skip(reason: string): never;
  /** Keeps what the check saw for the report, passed or failed. */
  evidence(label: string, data: unknown): void;
}

/** Fails with the expectation and the evidence (any JSON) when the condition does not hold. */
export function expectWith(condition: boolean, expected: string, evidence: unknown): asserts condition {
  if (condition) return;
  const text = JSON.stringify(evidence, null, 1) ?? String(evidence);
  throw new CheckFailure(`${expected}\n  evidence: ${text.slice(0, 4000)}`, null);
}

/**
 * A check's time unless it names its own: a passing check ends at its event, so the bound only matters on a loaded
 * machine, where an MQTT connect and publish took over 30 s at load 15 (the data-plane variants beside other suites).
 */
const defaultCheckTimeoutMilliseconds = 60_000;

/**
 * A check of one or more requirements. A check whose requirements the profile does not judge is skipped with that
 * reason; an unknown requirement id is a bug of the suite and fails the check.
 */
export function check(
  requirements: readonly string[],
  title: string,
  body: (context: CheckContext) => Promise<void>,
  options: number | CheckOptions = {},
): void {
  const { timeout = defaultCheckTimeoutMilliseconds, essential = false } =
    typeof options === 'number' ? { timeout: options } : options;
  it(
    `[${requirements.join(', ')}] ${title}`,
    async (context) => {
      context.task.meta.requirements = [...requirements];
      if (essential) context.task.meta.essential = true;
      const known = new Map(catalogue().map((requirement) => [requirement.id, requirement]));
      const unknown = requirements.filter((id) => !known.has(id));
      if (unknown.length > 0) throw new Error(`unknown requirement ids: ${unknown.join(', ')}`);
      const judged = requirements.some((id) => {
        const requirement = known.get(id);
        return requirement !== undefined && inProfile(requirement, currentTarget().profile);
      });
      if (!judged)
        context.skip(`inferred requirement; profile ${currentTarget().profile} judges documented ones only`);
      const kept: EvidenceItem[] = [];
      context.task.meta.evidence = kept;
      await body({
        skip: (reason) => context.skip(reason),
        evidence(label, data) {
          const text = JSON.stringify(data) ?? 'null';
          kept.push({
            label,
            data: text.length > maxEvidenceCharacters ? `${text.slice(0, maxEvidenceCharacters)}…` : data,
          });
        },
      });
    },
    timeout,
  );
}

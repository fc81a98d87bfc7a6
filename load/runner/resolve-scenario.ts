import { accountPlanMembers, apiPolicies, channelFacts } from '../../generated/types/facts.js';
import { LoadProfile } from './load-profile.js';
import type { Format, IngestSection, Quality, RestSection, Scenario } from './scenario.js';

/** A scenario with the spec's numbers filled in: rates from the quality and the plan, the run's shape. */
export interface ResolvedScenario {
  scenario: Scenario;
  profile: LoadProfile;
  ingest: ResolvedIngest | null;
  rest: ResolvedRest | null;
}

export interface ResolvedIngest {
  section: IngestSection;
  /** The quality's x-sample-rate-hz. */
  qualityRateHz: number;
  /** Messages per second per stream at full level. */
  ratePerStream: number;
  format: Format;
  qos: 0 | 1;
}

export interface ResolvedRest {
  section: RestSection;
  /** The plan's x-requests-per-minute, and the window it applies to (x-rate-limit). */
  limitPerWindow: number;
  windowSeconds: number;
  /** Requests per second per key at full level. */
  ratePerKey: number;
  /** With beyondLimitPerKey: exactly this many requests per key over the run. */
  requestsPerKey: number | null;
}

export function qualityRateHz(quality: Quality): number {
  const member = channelFacts.deviceTelemetry.qualityRates.oneOf.find((entry) => entry.const === quality);
  if (member === undefined) throw new Error(`the spec has no quality "${quality}"`);
  return member.sampleRateHz;
}

export function planRequestsPerMinute(plan: keyof typeof accountPlanMembers): number {
  return accountPlanMembers[plan].requestsPerMinute;
}

function resolveRest(section: RestSection, profile: LoadProfile): ResolvedRest {
  const limitPerWindow = planRequestsPerMinute(section.plan);
  const windowSeconds = apiPolicies.rateLimit.windowSeconds;
  if (section.beyondLimitPerKey === undefined) {
    const ratePerKey = ((limitPerWindow / windowSeconds) * (section.percentOfLimit ?? 100)) / 100;
    return { section, limitPerWindow, windowSeconds, ratePerKey, requestsPerKey: null };
  }
  // The window opens at a key's first request: the whole run must fit in one window for the count to be exact.
  if (profile.totalSeconds >= windowSeconds)
    throw new RangeError(
      `beyondLimitPerKey needs the run to fit in one rate window (${windowSeconds} s); it lasts ${profile.totalSeconds} s`,
    );
  const requestsPerKey = limitPerWindow + section.beyondLimitPerKey;
  return {
    section,
    limitPerWindow,
    windowSeconds,
    // Spread so that the last request is owed exactly at the end of the run, ramps included.
    ratePerKey: requestsPerKey / profile.area(profile.totalSeconds),
    requestsPerKey,
  };
}

/** `holdSeconds` replaces the scenario's durationSeconds (the `--seconds` flag). */
export function resolveScenario(
  scenario: Scenario,
  holdSeconds = scenario.durationSeconds,
): ResolvedScenario {
  const profile = new LoadProfile(scenario.stages ?? [], holdSeconds);
  const ingest = scenario.ingest;
  return {
    scenario,
    profile,
    ingest:
      ingest === undefined
        ? null
        : {
            section: ingest,
            qualityRateHz: qualityRateHz(ingest.quality),
            ratePerStream: (qualityRateHz(ingest.quality) * (ingest.percentOfQualityRate ?? 100)) / 100,
            format: ingest.format,
            qos: ingest.qos ?? 0,
          },
    rest: scenario.rest === undefined ? null : resolveRest(scenario.rest, profile),
  };
}

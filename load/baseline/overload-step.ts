// The second bar of the data-plane benchmark (ADR 0029): at 3× Mosquitto's N the target sheds load (drops samples
// with device.error service_overloaded, or refuses connections busy) with bounded memory and stays up. One run at that
// N with the target's memory sampled every second, then a short run at a small N that must lose nothing: the target
// recovered and still serves.
import type { IngestShedding } from '../../reference/index.js';
import { peakRssMb } from '../runner/collect-result.js';
import { resolveScenario } from '../runner/resolve-scenario.js';
import { defaultRunOptions, runScenario } from '../runner/run-scenario.js';
import type { Scenario } from '../runner/scenario.js';
import type { Target } from '../runner/targets/target.js';

export interface OverloadMeasurement {
  streams: number;
  sent: number;
  received: number;
  lost: number;
  /** Samples the driver sent more than 10 ms late: at 3× N on a small machine it is short of CPU too. */
  sentLate: number;
  shed: IngestShedding | null;
  peakRssMb: number | null;
  /** null when the overload run itself failed (the target stopped answering). */
  recoveryLost: number | null;
  error: string | null;
}

export interface OverloadVerdict {
  passed: boolean;
  reasons: string[];
}

/** Pass: up, recovered, memory under the bound, and whatever was lost was shed in the open (or nothing was lost). */
export function judgeOverload(measured: OverloadMeasurement, maxRssMb: number): OverloadVerdict {
  const reasons: string[] = [];
  if (measured.error !== null) reasons.push(`the target failed under overload: ${measured.error}`);
  if (measured.recoveryLost === null) reasons.push('no recovery run: the target did not come back');
  else if (measured.recoveryLost > 0)
    reasons.push(`after the overload a small run lost ${measured.recoveryLost} samples: not recovered`);
  if (measured.peakRssMb === null) reasons.push('the target reported no memory');
  else if (measured.peakRssMb > maxRssMb)
    reasons.push(`peak RSS ${measured.peakRssMb.toFixed(0)} MiB is above the bound of ${maxRssMb} MiB`);
  const shedInTheOpen = (measured.shed?.shedMessages ?? 0) + (measured.shed?.refusedConnections ?? 0);
  if (measured.lost > 0 && shedInTheOpen === 0)
    reasons.push(
      `${measured.lost} samples lost and none shed as service_overloaded or refused: lost in silence`,
    );
  return { passed: reasons.length === 0, reasons };
}

function withStreams(scenario: Scenario, streams: number, memory: boolean): Scenario {
  const ingest = scenario.ingest as NonNullable<Scenario['ingest']>;
  return {
    ...scenario,
    ingest: { ...ingest, streams },
    ...(memory ? { targetMemory: { everySeconds: 1 } } : {}),
  };
}

/** Runs `streams` on the target, then `recoveryStreams` for a few seconds; measures, does not judge. */
export async function measureOverload(
  target: Target,
  scenario: Scenario,
  streams: number,
  seconds: number,
  recoveryStreams: number,
): Promise<OverloadMeasurement> {
  const measured: OverloadMeasurement = {
    streams,
    sent: 0,
    received: 0,
    lost: 0,
    sentLate: 0,
    shed: null,
    peakRssMb: null,
    recoveryLost: null,
    error: null,
  };
  try {
    const resolved = resolveScenario(withStreams(scenario, streams, true), seconds);
    const result = await runScenario(resolved, target, defaultRunOptions);
    const ingest = result.ingest;
    Object.assign(measured, {
      sent: ingest?.sent ?? 0,
      received: ingest?.received ?? 0,
      lost: ingest?.lost ?? 0,
      sentLate: ingest?.pacing.late ?? 0,
      shed: result.targetShedding,
      peakRssMb: result.targetMemory === null ? null : peakRssMb(result.targetMemory.samples),
    });
  } catch (error) {
    measured.error = (error as Error).message;
    return measured;
  }
  const recovery = await runScenario(
    resolveScenario(withStreams(scenario, recoveryStreams, false), 5),
    target,
    defaultRunOptions,
  ).catch(() => null);
  measured.recoveryLost = recovery?.ingest?.lost ?? null;
  return measured;
}

export function describeOverload(measured: OverloadMeasurement, verdict: OverloadVerdict): string[] {
  const shed = measured.shed;
  return [
    `  at ${measured.streams} streams: sent ${measured.sent} (${measured.sentLate} of them late), received ${measured.received}, lost ${measured.lost}`,
    `    shed ${shed?.shedMessages ?? 'n/a'} as device.error service_overloaded (warm-up included), ${shed?.refusedConnections ?? 'n/a'} connections refused busy, ${shed?.episodes ?? 'n/a'} overload episode(s)`,
    `    peak RSS ${measured.peakRssMb === null ? 'n/a' : `${measured.peakRssMb.toFixed(0)} MiB`}; afterwards a small run lost ${measured.recoveryLost ?? 'n/a'}`,
    `    ${verdict.passed ? 'passed: shed in the open, bounded memory, still serving' : `FAILED: ${verdict.reasons.join('; ')}`}`,
  ];
}

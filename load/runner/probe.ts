import type { TelemetrySample } from '../../generated/types/schemas.js';

/**
 * The driver's samples carry what the measurement needs inside the spec's own payload: `values.seq` (1, 2, 3, … per
 * stream; 0 during the warm-up) and `values.sent_ms` (the send time on the runner's one clock, fractional milliseconds). `ts` is the send
 * time in whole milliseconds, as a device would set it.
 */
export function probeSample(sequence: number, sentMs: number): TelemetrySample {
  return { ts: Math.floor(sentMs), values: { seq: sequence, sent_ms: sentMs } };
}

export interface Probe {
  sequence: number;
  sentMs: number;
}

export function readProbe(sample: TelemetrySample): Probe | null {
  const sequence = sample.values.seq;
  const sentMs = sample.values.sent_ms;
  // Warm-up samples carry seq 0: they warm the path up and are not measured.
  if (typeof sequence !== 'number' || typeof sentMs !== 'number' || sequence < 1) return null;
  return { sequence, sentMs };
}

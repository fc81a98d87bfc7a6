import { deviceTelemetryDecodersByFormat } from '../../generated/messages/device-telemetry.js';
import type { TelemetrySample } from '../../generated/types/schemas.js';
import { validateTelemetrySample } from '../../generated/validators/index.js';

export type Format = keyof typeof deviceTelemetryDecodersByFormat;

export type DecodedSample = { ok: true; sample: TelemetrySample } | { ok: false; reason: string };

/**
 * One MQTT payload in the stream's format, decoded with the generated codec and checked with the generated
 * validator: a message that decodes but is not a TelemetrySample is as unusable as one that does not decode.
 */
export function decodeSample(format: string, payload: Uint8Array): DecodedSample {
  const decode = deviceTelemetryDecodersByFormat[format as Format];
  if (decode === undefined) return { ok: false, reason: `the stream's format ${format} has no decoder` };
  let decoded: unknown;
  try {
    decoded = decode(payload);
  } catch (error) {
    return { ok: false, reason: `not ${format}: ${(error as Error).message}` };
  }
  const validated = validateTelemetrySample(decoded);
  if (!validated.ok) return { ok: false, reason: `not a telemetry sample: ${validated.error.message}` };
  return { ok: true, sample: validated.value };
}

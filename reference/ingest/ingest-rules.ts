import { channelFacts, qualityMembers } from '../../generated/types/facts.js';

const rules = channelFacts.deviceTelemetry.ingestRules;

/** The spec's ingest rules (`x-ingest-rules`) in the units the ingest server works in: bytes and wall milliseconds. */
export const ingestLimits = {
  maxMessageBytes: rules.maxMessageBytes,
  maxControlPacketBytes: rules.connection.maxControlPacketBytes,
  connectDeadlineMilliseconds: rules.connection.connectDeadlineSeconds * 1000,
  keepAliveTimeoutFactor: rules.connection.keepAliveTimeoutFactor,
  errorIntervalMilliseconds: rules.errorEvents.perStreamPerSeconds * 1000,
  burstSeconds: rules.rateWindow.burstSeconds,
  /** The part of the burst that covers a pause of the service itself (the rest covers the device's jitter). */
  stallAllowanceSeconds: rules.rateWindow.stallAllowanceSeconds,
  rateTolerance: rules.rateWindow.rateTolerance,
  highestQos: Math.max(...rules.qos),
} as const;

export type Quality = keyof typeof qualityMembers;

/** The highest message rate of a quality (`x-sample-rate-hz`). */
export function sampleRateOf(quality: string): number {
  const member = qualityMembers[quality as Quality];
  if (member === undefined) throw new RangeError(`unknown quality: ${quality}`);
  return member.sampleRateHz;
}

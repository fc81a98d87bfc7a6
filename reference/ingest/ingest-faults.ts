import { parseDeviceTelemetryAddress } from '../../generated/messages/device-telemetry.js';
import type { IngestFaults } from '../faults.js';

/** The stream a PUBLISH feeds: the device's own for its own topic; null for any other, unless the fault admits it. */
export function publishTarget(topic: string, ownStreamId: string, faults: IngestFaults): string | null {
  const streamId = parseDeviceTelemetryAddress(topic)?.streamId;
  if (streamId === ownStreamId) return streamId;
  return faults.otherTopicsAdmitted === true && streamId !== undefined ? streamId : null;
}

/** device.online's snapshot, without `startedAt` under the fault. */
export function onlineSnapshot<Snapshot extends { startedAt: string }>(
  snapshot: Snapshot,
  faults: IngestFaults,
): Snapshot {
  if (faults.onlineWithoutStartedAt !== true) return snapshot;
  const { startedAt: _left, ...rest } = snapshot;
  // Deliberately invalid: the event's type promises startedAt, and the fault is that it is missing.
  return rest as Snapshot;
}

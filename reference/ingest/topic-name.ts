import type { ProtocolErrorKind } from './mqtt-codes.js';
import { isMqttString } from './mqtt-string.js';

const plus = 0x2b;
const hash = 0x23;

/**
 * What makes the topic name of a device's PUBLISH break the protocol (x-ingest-rules.protocolErrors), or null for a
 * valid name. Asked only of a topic that is not the stream's own, so the 1 kHz path never pays for it:
 * - not UTF-8, or holding U+0000: a malformed packet [MQTT-1.5.4-1, MQTT-1.5.4-2];
 * - empty (without a Topic Alias, which is refused before) or holding a wildcard: a protocol error [MQTT-4.7.3-1,
 *   MQTT-3.3.2-2]. Mosquitto answers these the same way.
 */
export function topicNameProblem(topic: Buffer): ProtocolErrorKind | null {
  if (!isMqttString(topic)) return 'malformedPacket';
  if (topic.length === 0 || topic.includes(plus) || topic.includes(hash)) return 'protocolError';
  return null;
}

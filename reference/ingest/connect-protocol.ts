import type { ProtocolVersion } from './mqtt-replies.js';

/** The protocol levels this broker speaks: MQTT 3.1.1 and MQTT 5 (x-ingest-rules.protocolVersions). */
const spokenLevels: ReadonlySet<number> = new Set<ProtocolVersion>([4, 5]);
/** The protocol names of MQTT 3.1.1 and 5, and of MQTT 3.1, which announce their level after them. */
const mqttNames: ReadonlySet<string> = new Set(['MQTT', 'MQIsdp']);

/**
 * Whether a whole CONNECT packet announces an MQTT protocol level this broker does not speak [MQTT-3.1.2-2]. Read
 * from the bytes, ahead of mqtt-packet's parser, which rejects a level it does not know as a malformed packet (no
 * CONNACK at all) and strips the bridge bit (0x80) from one it does. False when the packet is too short to say, or
 * names another protocol (the parser closes such a connection, as MQTT allows [MQTT-3.1.2-1]).
 */
export function announcesUnspokenLevel(packet: Buffer): boolean {
  // The fixed header: the type byte, then the remaining length in one to four bytes, each but the last with 0x80 set.
  let offset = 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent through the API, the framer closes a connection whose remaining length runs past four bytes before a packet gets here
  while (offset < 4 && ((packet[offset] ?? 0) & 0x80) !== 0) offset += 1;
  offset += 1;
  // Stryker disable next-line EqualityOperator: equivalent, a packet ending with the name's length has no level either way (the next test says so)
  if (offset + 2 > packet.length) return false;
  const nameEnd = offset + 2 + packet.readUInt16BE(offset);
  if (nameEnd >= packet.length) return false;
  const name = packet.toString('latin1', offset + 2, nameEnd);
  return mqttNames.has(name) && !spokenLevels.has(packet[nameEnd] ?? 0);
}

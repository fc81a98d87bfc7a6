import type { ProtocolErrorKind } from './mqtt-codes.js';
import { isMqttString } from './mqtt-string.js';

const topicAlias = 0x23;
const subscriptionIdentifier = 0x0b;
/** The other properties a PUBLISH may carry (MQTT 5.0 §3.3.2.3), by identifier: those of a fixed size, in bytes... */
const fixedSizes: ReadonlyMap<number, number> = new Map([
  [0x01, 1], // Payload Format Indicator
  [0x02, 4], // Message Expiry Interval
]);
/**
 * ...and those made of fields with a two-byte length: strings (which must be MQTT strings), binary data, and a user
 * property's name and value.
 */
const prefixedFields: ReadonlyMap<number, { fields: number; text: boolean }> = new Map([
  [0x03, { fields: 1, text: true }], // Content Type
  [0x08, { fields: 1, text: true }], // Response Topic
  [0x09, { fields: 1, text: false }], // Correlation Data
  [0x26, { fields: 2, text: true }], // User Property
]);

/**
 * What is wrong with the properties of a device's PUBLISH, from `start` to `end` of `bytes`, or null
 * (x-ingest-rules.protocolErrors): a Topic Alias is invalid, this broker's maximum being 0 [MQTT-3.3.2-8]; a
 * Subscription Identifier is a protocol error, only a server sends one [MQTT-3.3.4-6]; a property a PUBLISH cannot
 * carry, one that runs past the end, or a string property that is not UTF-8 or holds U+0000 [MQTT-1.5.4-1,
 * MQTT-1.5.4-2] makes the packet malformed. Read only when there are properties: most devices send none.
 */
export function publishPropertyProblem(bytes: Buffer, start: number, end: number): ProtocolErrorKind | null {
  let offset = start;
  while (offset < end) {
    const identifier = bytes[offset] as number;
    offset += 1;
    if (identifier === topicAlias) return 'topicAliasInvalid';
    if (identifier === subscriptionIdentifier) return 'protocolError';
    const size = fixedSizes.get(identifier);
    const prefixed = prefixedFields.get(identifier);
    if (size !== undefined) offset += size;
    else if (prefixed === undefined) return 'malformedPacket';
    else
      for (let field = 0; field < prefixed.fields; field += 1) {
        if (offset + 2 > end) return 'malformedPacket';
        const fieldEnd = offset + 2 + bytes.readUInt16BE(offset);
        if (fieldEnd > end || (prefixed.text && !isMqttString(bytes.subarray(offset + 2, fieldEnd))))
          return 'malformedPacket';
        offset = fieldEnd;
      }
  }
  return offset === end ? null : 'malformedPacket';
}

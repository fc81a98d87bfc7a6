import type { ProtocolErrorKind } from './mqtt-codes.js';

const topicAlias = 0x23;
const subscriptionIdentifier = 0x0b;
/** The other properties a PUBLISH may carry (MQTT 5.0 §3.3.2.3), by identifier: those of a fixed size, in bytes... */
const fixedSizes: ReadonlyMap<number, number> = new Map([
  [0x01, 1], // Payload Format Indicator
  [0x02, 4], // Message Expiry Interval
]);
/** ...and those made of fields with a two-byte length: strings, binary data, and a user property's name and value. */
const prefixedFields: ReadonlyMap<number, number> = new Map([
  [0x03, 1], // Content Type
  [0x08, 1], // Response Topic
  [0x09, 1], // Correlation Data
  [0x26, 2], // User Property
]);

/**
 * What is wrong with the properties of a device's PUBLISH, from `start` to `end` of `bytes`, or null
 * (x-ingest-rules.protocolErrors): a Topic Alias is invalid, this broker's maximum being 0 [MQTT-3.3.2-8]; a
 * Subscription Identifier is a protocol error, only a server sends one [MQTT-3.3.4-6]; a property a PUBLISH cannot
 * carry, or one that runs past the end, makes the packet malformed. Read only when there are properties: most
 * devices send none.
 */
export function publishPropertyProblem(bytes: Buffer, start: number, end: number): ProtocolErrorKind | null {
  let offset = start;
  while (offset < end) {
    const identifier = bytes[offset] as number;
    offset += 1;
    if (identifier === topicAlias) return 'topicAliasInvalid';
    if (identifier === subscriptionIdentifier) return 'protocolError';
    const size = fixedSizes.get(identifier);
    const fields = prefixedFields.get(identifier);
    if (size !== undefined) offset += size;
    else if (fields === undefined) return 'malformedPacket';
    else
      for (let field = 0; field < fields; field += 1) {
        if (offset + 2 > end) return 'malformedPacket';
        offset += 2 + bytes.readUInt16BE(offset);
      }
  }
  return offset === end ? null : 'malformedPacket';
}

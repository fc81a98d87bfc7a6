import type { ProtocolErrorKind } from './mqtt-codes.js';
import { publishPropertyProblem } from './publish-properties.js';

/** What ingest needs of a PUBLISH: no user properties or content type, which it does not act on. */
export interface PublishFields {
  qos: number;
  topic: string;
  /** 0 for QoS 0. */
  messageId: number;
  payload: Buffer;
  /**
   * What ends the connection although the packet is well formed: a QoS 1 packet identifier of 0 [MQTT-2.2.1-3], or on
   * MQTT 5 a Topic Alias or a Subscription Identifier; null for none.
   */
  problem: ProtocolErrorKind | null;
}

/** A variable byte integer at `offset`: its value and the bytes it took; null when it runs past the end. */
function variableByteInteger(bytes: Buffer, offset: number): { value: number; length: number } | null {
  let value = 0;
  for (let index = 0; index < 4; index += 1) {
    const byte = bytes[offset + index];
    if (byte === undefined) return null;
    value += (byte & 0x7f) * 128 ** index;
    if ((byte & 0x80) === 0) return { value, length: index + 1 };
  }
  return null;
}

/**
 * Reads one whole PUBLISH packet (fixed header included, as the framer hands it over), for MQTT 3.1.1 or 5. The hot
 * path of ingest: mqtt-packet's general parser costs several times more per message, and a 1 kHz stream is all
 * PUBLISH. Returns null for a malformed packet (both QoS bits set, lengths that run past its end, a property no PUBLISH
 * carries), which closes the connection.
 */
export function readPublish(bytes: Buffer, version: 4 | 5): PublishFields | null {
  const first = bytes[0] ?? 0;
  const qos = (first >> 1) & 3;
  // Both QoS bits set [MQTT-3.3.1-4].
  if (qos === 3) return null;
  const remaining = variableByteInteger(bytes, 1);
  if (remaining === null) return null;
  let offset = 1 + remaining.length;
  if (offset + 2 > bytes.length) return null;
  const topicLength = bytes.readUInt16BE(offset);
  offset += 2;
  if (offset + topicLength > bytes.length) return null;
  const topic = bytes.toString('utf8', offset, offset + topicLength);
  offset += topicLength;
  let messageId = 0;
  let problem: ProtocolErrorKind | null = null;
  if (qos > 0) {
    if (offset + 2 > bytes.length) return null;
    messageId = bytes.readUInt16BE(offset);
    if (messageId === 0) problem = 'protocolError';
    offset += 2;
  }
  if (version === 5) {
    const properties = variableByteInteger(bytes, offset);
    if (properties === null || offset + properties.length + properties.value > bytes.length) return null;
    const start = offset + properties.length;
    offset = start + properties.value;
    if (properties.value > 0) problem = publishPropertyProblem(bytes, start, offset) ?? problem;
    if (problem === 'malformedPacket') return null;
  }
  return { qos, topic, messageId, payload: bytes.subarray(offset), problem };
}

/** The topic name's bytes of a PUBLISH `readPublish` has read (so its lengths are known to fit). */
export function publishTopicBytes(bytes: Buffer): Buffer {
  const remaining = variableByteInteger(bytes, 1);
  const start = 1 + (remaining?.length ?? 0) + 2;
  return bytes.subarray(start, start + bytes.readUInt16BE(start - 2));
}

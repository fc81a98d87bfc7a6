import { generate, type Packet } from 'mqtt-packet';
import { ingestLimits } from './ingest-rules.js';
import {
  type ConnectRefusal,
  connectRefusalCodes,
  noSubscriptionExisted,
  type ProtocolErrorKind,
  type PublishOutcome,
  protocolErrorCodes,
  pubackReasonCodes,
  subscribeRefusalCodes,
} from './mqtt-codes.js';

export type ProtocolVersion = 4 | 5;

/** The packets the ingest server sends, each encoded for the connection's protocol version. */
export function encode(packet: Packet, version: ProtocolVersion): Buffer {
  return generate(packet, { protocolVersion: version });
}

export function connackAccepted(version: ProtocolVersion): Buffer {
  // MQTT 5 clients learn the highest QoS here and do not send QoS 2 at all [MQTT-3.2.2-9].
  const properties = version === 5 ? { properties: { maximumQoS: ingestLimits.highestQos } } : {};
  return encode(
    { cmd: 'connack', sessionPresent: false, reasonCode: 0, returnCode: 0, ...properties },
    version,
  );
}

/** A CONNACK that refuses: its Session Present is 0, as with any refusal [MQTT-3.2.2-6]. */
function refusingConnack(code: number, version: ProtocolVersion): Buffer {
  return encode(
    {
      cmd: 'connack',
      sessionPresent: false,
      ...(version === 5 ? { reasonCode: code } : { returnCode: code }),
    },
    version,
  );
}

export function connackRefused(refusal: ConnectRefusal, version: ProtocolVersion): Buffer {
  return refusingConnack(connectRefusalCodes[refusal][version], version);
}

/** MQTT 5's CONNACK for a CONNECT that breaks the protocol (x-ingest-rules.protocolErrors). */
export function connackProtocolError(kind: ProtocolErrorKind): Buffer {
  return refusingConnack(protocolErrorCodes[kind], 5);
}

/**
 * MQTT 3.1.1 cannot refuse a PUBLISH: its PUBACK only says the message arrived [MQTT-3.3.5-2]. An MQTT 5 refusal
 * names its cause in a reason string, left out when it would take the packet over the client's Maximum Packet Size
 * [MQTT-3.4.2-2].
 */
export function puback(
  messageId: number,
  outcome: PublishOutcome,
  version: ProtocolVersion,
  maximumPacketSize = Number.POSITIVE_INFINITY,
): Buffer {
  const reasonCode = version === 5 ? pubackReasonCodes[outcome] : 0;
  if (version === 4 || outcome === 'accepted')
    return encode({ cmd: 'puback', messageId, reasonCode }, version);
  const explained = encode(
    { cmd: 'puback', messageId, reasonCode, properties: { reasonString: outcome } },
    5,
  );
  return explained.length <= maximumPacketSize
    ? explained
    : encode({ cmd: 'puback', messageId, reasonCode }, 5);
}

export function subackRefused(messageId: number, filters: number, version: ProtocolVersion): Buffer {
  const granted = Array.from({ length: filters }, () => subscribeRefusalCodes[version]);
  return encode({ cmd: 'suback', messageId, granted }, version);
}

export function unsuback(messageId: number, filters: number, version: ProtocolVersion): Buffer {
  const granted = version === 5 ? Array.from({ length: filters }, () => noSubscriptionExisted) : [];
  return encode({ cmd: 'unsuback', messageId, granted }, version);
}

export function disconnect(reasonCode: number): Buffer {
  return encode({ cmd: 'disconnect', reasonCode }, 5);
}

export const pingresp = encode({ cmd: 'pingresp' }, 4);

/**
 * The MQTT return and reason codes the ingest server answers with (OASIS MQTT 3.1.1 §3.2.2.3, MQTT 5.0 §2.4). They
 * are the protocol's, not the service's: which one answers which case is stated in `x-ingest-rules`.
 */
export type ConnectRefusal =
  | 'notAuthorized'
  | 'badCredentials'
  | 'packetTooLarge'
  | 'unsupportedProtocolVersion'
  | 'identifierRejected'
  | 'serverUnavailable'
  | 'serverBusy'
  | 'badAuthenticationMethod';

export const connectRefusalCodes: Record<ConnectRefusal, { 4: number; 5: number }> = {
  notAuthorized: { 4: 5, 5: 0x87 },
  badCredentials: { 4: 4, 5: 0x86 },
  // 3.1.1 has no "too large"; the oversized field is nearly always the password.
  packetTooLarge: { 4: 4, 5: 0x95 },
  unsupportedProtocolVersion: { 4: 1, 5: 0x84 },
  identifierRejected: { 4: 2, 5: 0x85 },
  serverUnavailable: { 4: 3, 5: 0x88 },
  // 3.1.1 has no "busy"; "server unavailable" is its nearest word, and it too invites a retry later.
  serverBusy: { 4: 3, 5: 0x89 },
  // Only MQTT 5 has an Authentication Method; 3.1.1's nearest word would be "not authorized".
  badAuthenticationMethod: { 4: 5, 5: 0x8c },
};

/** MQTT 5 PUBACK reason codes of a dropped message, by the cause of the drop. */
export const pubackReasonCodes = {
  accepted: 0x00,
  format_mismatch: 0x99,
  rate_exceeded: 0x97,
  message_too_large: 0x83,
  otherTopic: 0x87,
  // Only MQTT 5 ever sees it: a 3.1.1 connection is closed instead of acknowledging (x-ingest-rules.overload).
  service_overloaded: 0x97,
} as const;

export type PublishOutcome = keyof typeof pubackReasonCodes;

/**
 * MQTT 5 reason codes of a protocol error (x-ingest-rules.protocolErrors): in the CONNACK for an error in the CONNECT,
 * in a DISCONNECT for a later packet [MQTT-4.13.1-1]. MQTT 3.1.1 has no word for them and only closes.
 */
export const protocolErrorCodes = {
  malformedPacket: 0x81,
  protocolError: 0x82,
  topicAliasInvalid: 0x94,
  packetTooLarge: 0x95,
} as const;

export type ProtocolErrorKind = keyof typeof protocolErrorCodes;

export const subscribeRefusalCodes = { 4: 0x80, 5: 0x87 } as const;
export const noSubscriptionExisted = 0x11;
export const qosNotSupported = 0x9b;
export const serverShuttingDown = 0x8b;
export const packetTypes = { connect: 1, publish: 3 } as const;

/**
 * Test-only switches that break the reference on purpose, one realistic fault each, so the conformance harness can
 * prove it notices (conformance/testing/data-plane-variants.ts). All off by default. Only `start()` takes them:
 * `npm start` cannot turn them on (config.ts drops the key, and no environment variable or flag names them).
 */
export interface ReferenceFaults {
  /** Webhook delivery: retry `index` (0-based) waits `factor` times the spec's delay. */
  retryDelay?: { index: number; factor: number };
  /** Webhook delivery: the schedule loses its last `count` retries. */
  retriesDropped?: number;
  /** Webhook delivery: signatures carry a `t` this many seconds off the service clock. */
  signatureSkewSeconds?: number;
  /** Webhook delivery: a 3xx answer counts as delivered. */
  redirectCountsAsDelivered?: boolean;
  /** Webhooks: a url with user information is accepted (and its credentials never sent). */
  webhookUserInfoAccepted?: boolean;
  /** Ingest: a PUBLISH to another stream's topic reaches that stream's subscribers. */
  otherTopicsAdmitted?: boolean;
  /** Ingest: device.online leaves `startedAt` out of its snapshot. */
  onlineWithoutStartedAt?: boolean;
  /** Ingest: a CONNECT of a protocol level mqtt-packet does not know is closed without a CONNACK. */
  unknownProtocolLevelUnanswered?: boolean;
  /** Ingest: an MQTT 5 Authentication Method is ignored and the CONNECT accepted on its password. */
  authenticationMethodIgnored?: boolean;
  /** Ingest: an MQTT 5 protocol error closes the connection without its CONNACK or DISCONNECT reason code. */
  protocolErrorsUnexplained?: boolean;
  /** Ingest: an MQTT 5 PUBACK keeps its reason string even beyond the client's Maximum Packet Size. */
  reasonStringOverMaximumPacketSize?: boolean;
  /** Ingest: a PUBLISH to an invalid topic name (empty, a wildcard, not UTF-8) is refused as one to another topic. */
  topicNamesUnchecked?: boolean;
  /** Live feed: a subscriber dropped as too slow takes the stream's other subscribers with it. */
  slowConsumerClosesAll?: boolean;
  /** Live feed: a handshake the WebSocket protocol refuses gets the WebSocket library's own text answer. */
  malformedHandshakeInPlainText?: boolean;
  /** Recording: a record published mid-session ends the session's recording, as a deleted one does. */
  publishedRecordEndsRecording?: boolean;
}

export type DeliveryFaults = Pick<
  ReferenceFaults,
  'retryDelay' | 'retriesDropped' | 'signatureSkewSeconds' | 'redirectCountsAsDelivered'
>;
export type IngestFaults = Pick<
  ReferenceFaults,
  | 'otherTopicsAdmitted'
  | 'onlineWithoutStartedAt'
  | 'unknownProtocolLevelUnanswered'
  | 'authenticationMethodIgnored'
  | 'protocolErrorsUnexplained'
  | 'reasonStringOverMaximumPacketSize'
  | 'topicNamesUnchecked'
>;
export type LiveFeedFaults = Pick<ReferenceFaults, 'slowConsumerClosesAll' | 'malformedHandshakeInPlainText'>;
export type RecordingFaults = Pick<ReferenceFaults, 'publishedRecordEndsRecording'>;

import { apiPolicies } from '../../generated/types/facts.js';
import { webhookEventHeader } from '../../generated/webhooks/index.js';
import type { ReferenceFaults } from '../../reference/index.js';
import type { FrameFault } from './live-feed-proxy.js';
import { dropEvery, duplicateFrameEvery, sequenceGapAfter } from './live-frame-faults.js';
import type { DeliveryFault } from './webhook-proxy.js';

const policy = apiPolicies.webhookDelivery;

/**
 * A broken variant of the data plane: switches of the embedded reference (`faults`, both its wall-clock instance
 * and its fast-clock twin), or a proxy in front of it (webhook deliveries, live-feed frames). `breaks` is exactly
 * what the checks of `files` must fail; `tsx conformance/testing/calibrate-data-plane-variants.ts` prints it anew.
 */
export interface DataPlaneVariant {
  name: string;
  faults?: ReferenceFaults;
  /** Between the service and the harness's webhook receivers. */
  webhookFault?: DeliveryFault;
  /** Between the live feed and the harness's subscribers (the wall-clock instance). */
  frameFault?: () => FrameFault;
  files: string[];
  breaks: string[];
}

const retriesIds = [
  'LIM-WEBHOOK-RETRIES',
  'RULE-WEBHOOK-DELIVERY-RETRIES',
  'EVT-RETRY-UNDELIVERED',
  'RULE-WEBHOOK-DELIVERY-AFTER-LAST-RETRY',
  'INF-SCHEMAS-WEBHOOK-DELIVERY',
  'INF-SCHEMAS-WEBHOOK-DELIVERY-PROPERTIES-ATTEMPTS-ITEMS-PROPERTIES-DURATIONMS',
];

const retryDelayIds = (index: number) => [
  'EVT-RETRY-SCHEDULE',
  `RULE-WEBHOOK-DELIVERY-RETRY-DELAYS-SECONDS-${index}`,
];

export const dataPlaneVariants: DataPlaneVariant[] = [
  {
    // The fourth retry: the earlier delays are shorter than the wall-clock slack at the fast clock's scale.
    name: 'the fourth retry waits twice its delay',
    faults: { retryDelay: { index: 3, factor: 2 } },
    files: ['checks/82-'],
    breaks: retryDelayIds(3),
  },
  {
    name: 'one retry too few',
    faults: { retriesDropped: 1 },
    files: ['checks/82-'],
    // The last gap never comes, and the count of attempts and the final state both miss it.
    breaks: [...retryDelayIds(policy.retryDelaysSeconds.length - 1), ...retriesIds],
  },
  {
    name: 'a 3xx answer counts as delivered',
    faults: { redirectCountsAsDelivered: true },
    files: ['checks/82-'],
    breaks: ['RULE-WEBHOOK-DELIVERY-RECEIVER-REDIRECTS'],
  },
  {
    name: 'signatures carry a t outside the tolerance',
    faults: { signatureSkewSeconds: -(policy.signature.toleranceSeconds + 60) },
    files: ['checks/80-'],
    breaks: [
      'EVT-SIGNATURE-TOLERANCE',
      'LIM-WEBHOOK-TOLERANCE',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-TOLERANCE-SECONDS',
    ],
  },
  {
    name: 'the signature is over the body before it was re-serialised',
    webhookFault: (delivery) => ({
      ...delivery,
      body: Buffer.from(JSON.stringify(JSON.parse(delivery.body.toString('utf8')), null, 2), 'utf8'),
    }),
    files: ['checks/80-', 'checks/82-'],
    // No v1 matches bytes that changed after signing: the signature fails, and so does the proof of signing with
    // both secrets during a roll.
    breaks: [
      'AUTH-WEBHOOK-SIGNATURE',
      'EVT-SIGNATURE-HMAC',
      'EVT-SIGNATURE-PAYLOAD',
      'RULE-WEBHOOK-DELIVERY-SECRET-ROTATION-DURING',
      'RULE-WEBHOOK-DELIVERY-SECRET-ROTATION-OVERLAP-SECONDS',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-ALGORITHM',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-COMPARISON',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-DIGEST',
      'RULE-WEBHOOK-DELIVERY-SIGNATURE-SIGNED-PAYLOAD',
      'RULE-WEBHOOK-DELIVERY-VERIFICATION-KEY',
      'RULE-WEBHOOK-DELIVERY-VERIFICATION-MULTIPLE-V1',
    ],
  },
  {
    name: `the ${webhookEventHeader} header is missing`,
    webhookFault: (delivery) => {
      const { [webhookEventHeader.toLowerCase()]: _dropped, ...headers } = delivery.headers;
      return { ...delivery, headers };
    },
    files: ['checks/80-'],
    breaks: ['EVT-HEADER-EVENT', 'RULE-WEBHOOK-DELIVERY-SIGNATURE-EVENT-HEADER'],
  },
  {
    name: "a device is admitted on another stream's topic",
    faults: { otherTopicsAdmitted: true },
    files: ['checks/70-'],
    breaks: ['RULE-INGEST-TOPIC-ACCESS', 'RULE-INGEST-UNSUPPORTED-OTHER-TOPIC'],
  },
  {
    name: 'device.online has no startedAt',
    faults: { onlineWithoutStartedAt: true },
    files: ['checks/72-'],
    breaks: ['EVT-DEVICE-ONLINE-PAYLOAD', 'EVT-TYPE-DEVICE-ONLINE'],
  },
  {
    name: 'a slow consumer closes every subscriber of the stream',
    faults: { slowConsumerClosesAll: true },
    files: ['checks/74-'],
    breaks: ['RULE-CONNECTION-CLOSE-CODES-SUBSCRIBER-TOO-SLOW'],
  },
  {
    name: 'a webhook url with user information is accepted',
    faults: { webhookUserInfoAccepted: true },
    files: ['checks/80-'],
    breaks: ['INF-SCHEMAS-ERROR-CODE-ONEOF-WEBHOOK_URL_FORBIDDEN', 'RULE-WEBHOOK-DELIVERY-TARGETS-USER-INFO'],
  },
  {
    name: 'an MQTT 5 Authentication Method is ignored',
    faults: { authenticationMethodIgnored: true },
    files: ['checks/71-'],
    breaks: ['RULE-INGEST-UNSUPPORTED-ENHANCED-AUTHENTICATION'],
  },
  {
    // mqtt-packet's own handling: a level it does not know is a malformed packet, closed without a CONNACK.
    name: 'a CONNECT of an unknown protocol level is closed unanswered',
    faults: { unknownProtocolLevelUnanswered: true },
    files: ['checks/71-'],
    breaks: ['RULE-INGEST-PROTOCOL-VERSIONS-RULE'],
  },
  {
    // mqtt-packet's and a bare broker's way: a protocol error closes the connection without a word.
    name: 'an MQTT 5 protocol error is closed without its reason code',
    faults: { protocolErrorsUnexplained: true },
    files: ['checks/71-'],
    breaks: ['RULE-INGEST-PROTOCOL-ERRORS-RULE'],
  },
  {
    name: "a PUBACK's reason string goes beyond the client's Maximum Packet Size",
    faults: { reasonStringOverMaximumPacketSize: true },
    files: ['checks/71-'],
    breaks: ['RULE-INGEST-PROTOCOL-ERRORS-RULE'],
  },
  {
    // A broker that compares a PUBLISH's topic with the stream's and never asks whether it is a topic name at all.
    name: 'a PUBLISH to an invalid topic name is refused as one to another topic',
    faults: { topicNamesUnchecked: true },
    files: ['checks/71-'],
    breaks: ['RULE-INGEST-PROTOCOL-ERRORS-RULE'],
  },
  {
    // The WebSocket library's own refusal: 400 in plain text, outside the envelope.
    name: 'a malformed handshake is refused in plain text',
    faults: { malformedHandshakeInPlainText: true },
    files: ['checks/74-'],
    breaks: ['RULE-CONNECTION-HANDSHAKE-ERRORS', 'RULE-CONNECTION-HANDSHAKE-ERROR-CODES-MALFORMED-HANDSHAKE'],
  },
  {
    name: 'a record published mid-session ends the recording',
    faults: { publishedRecordEndsRecording: true },
    files: ['checks/73-'],
    breaks: ['INF-SCHEMAS-RECORD-X-RECORDING-PUBLISHED'],
  },
  {
    name: 'every 1,000th sample is dropped (seq renumbered)',
    frameFault: dropEvery(1000),
    files: ['checks/76-'],
    breaks: ['EP-CREATE-STREAM-QUALITY-DEFAULT', 'RULE-INGEST-RATE-WINDOW-RATE-TOLERANCE'],
  },
  {
    name: 'seq skips a number after the 500th message',
    frameFault: sequenceGapAfter(500),
    files: ['checks/76-'],
    breaks: ['INF-SCHEMAS-LIVE-SEQUENCE'],
  },
  {
    name: "the frame with a subscriber's 1,000th message is sent twice",
    frameFault: duplicateFrameEvery(1000),
    files: ['checks/76-'],
    // A repeated frame repeats its seq numbers too.
    breaks: ['INF-SCHEMAS-LIVE-FRAME', 'INF-SCHEMAS-LIVE-SEQUENCE', 'RULE-CONNECTION-BATCHING-RULE'],
  },
];

import { channelFacts } from '../../generated/types/facts.js';
import type { ErrorCode } from '../problems.js';

const rules = channelFacts.liveFeed.connectionRules;

/** The close code of each reason a live-feed connection ends (x-connection-rules.closeCodes). */
export const closeCodes = Object.fromEntries(
  Object.entries(rules.closeCodes).map(([reason, entry]) => [reason, entry.code]),
) as { readonly [Reason in keyof typeof rules.closeCodes]: (typeof rules.closeCodes)[Reason]['code'] };

export type CloseReason = keyof typeof closeCodes;

/** The REST error code answering each refused handshake (x-connection-rules.handshakeErrorCodes). */
export const handshakeErrorCodes: { readonly [Case in keyof typeof rules.handshakeErrorCodes]: ErrorCode } =
  rules.handshakeErrorCodes;

/** How far behind (queued and unsent bytes) a subscriber may fall before it is dropped. */
export const maxBufferedBytes: number = rules.maxBufferedBytes;

export const pingIntervalMilliseconds: number = rules.keepAlive.pingIntervalSeconds * 1000;

/** Changes of subscriberCount this close after a status message wait and go out as one (wall clock). */
export const subscriberCountCoalesceMilliseconds: number = rules.subscriberCountMessages.coalesceMilliseconds;

/**
 * The longest frame a subscriber may send: RFC 6455 limits control frames (ping, pong, close) to 125 bytes of
 * payload, and the feed accepts no data frames, so anything longer is refused before it is buffered.
 */
export const maxSubscriberFrameBytes = 125;

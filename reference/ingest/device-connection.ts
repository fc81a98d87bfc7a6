import type { Socket } from 'node:net';
import { parser as createParser, type IConnectPacket, type Packet } from 'mqtt-packet';
import type { FanoutBus } from '../fanout/fanout-bus.js';
import type { IngestFaults } from '../faults.js';
import type { Store } from '../storage/store.js';
import { AcknowledgementQueue } from './acknowledgement-queue.js';
import { authenticateDevice } from './authenticate-device.js';
import { announcesUnspokenLevel } from './connect-protocol.js';
import type { DeviceErrorReporter } from './device-error-reporter.js';
import { ingestLimits } from './ingest-rules.js';
import {
  type ConnectRefusal,
  type ProtocolErrorKind,
  type PublishOutcome,
  packetTypes,
  protocolErrorCodes,
  qosNotSupported,
} from './mqtt-codes.js';
import * as replies from './mqtt-replies.js';
import type { OverloadGuard } from './overload-guard.js';
import { PacketFramer, type PacketHeader } from './packet-framer.js';
import { type PublishFields, publishTopicBytes, readPublish } from './read-publish.js';
import { StreamIngest } from './stream-ingest.js';
import type { StreamSessions } from './stream-sessions.js';
import { topicNameProblem } from './topic-name.js';

export interface ConnectionContext {
  store: Store;
  sessions: StreamSessions;
  errors: DeviceErrorReporter;
  bus: FanoutBus;
  overload: OverloadGuard;
  onFailure(error: unknown): void;
  faults: IngestFaults;
}

type State = 'awaiting-connect' | 'authenticating' | 'connected' | 'closed';

/** Unread acknowledgements a device may leave in its socket before it counts as dead. */
const maxUnreadReplyBytes = 1024 * 1024;

/**
 * One device's TCP connection: frames and parses its packets, authenticates its CONNECT, answers the protocol, and
 * hands PUBLISHes to the stream's ingest. Whatever goes wrong closes this connection only.
 */
export class DeviceConnection {
  #state: State = 'awaiting-connect';
  #version: replies.ProtocolVersion = 4;
  #ingest: StreamIngest | null = null;
  #connecting: Promise<void> = Promise.resolve();
  #lastPacketAt = Date.now();
  #keepAliveMilliseconds = 0;
  #keepAliveTimer: NodeJS.Timeout | undefined;
  /** The largest packet the device takes (MQTT 5's Maximum Packet Size); no bound when it names none. */
  #maximumPacketSize = Number.POSITIVE_INFINITY;
  readonly #connectDeadline: NodeJS.Timeout;
  readonly #parser = createParser();
  readonly #framer: PacketFramer;
  readonly #acknowledgements = new AcknowledgementQueue(
    (bytes) => this.#write(bytes),
    (error) => {
      this.context.onFailure(error);
      this.#destroy();
    },
  );
  /** Resolves once the socket closed and the stream (if it went live) is idle again. */
  readonly done: Promise<void>;

  constructor(
    private readonly socket: Socket,
    private readonly context: ConnectionContext,
  ) {
    socket.setNoDelay(true);
    this.#framer = new PacketFramer((type) => this.#limitFor(type), ingestLimits.maxControlPacketBytes, {
      packet: (bytes) => this.#onPacketBytes(bytes),
      oversized: (header, prefix) => this.#onOversized(header, prefix),
      malformed: () => this.#protocolError('malformedPacket'),
    });
    this.#parser.on('packet', (packet: Packet) => this.#onPacket(packet));
    this.#parser.on('error', () => this.#protocolError('malformedPacket'));
    this.#connectDeadline = setTimeout(() => this.#destroy(), ingestLimits.connectDeadlineMilliseconds);
    let closed: () => void = () => {};
    this.done = new Promise((resolve) => {
      closed = resolve;
    });
    socket.on('data', (chunk: Buffer) => {
      const startedAt = performance.now();
      this.#framer.push(chunk);
      this.context.overload.recordIngestTime(performance.now() - startedAt);
    });
    socket.on('error', () => this.#destroy());
    socket.on('close', () => void this.#onClose().then(closed));
  }

  get streamId(): string | null {
    return this.#ingest?.session.streamId ?? null;
  }

  /** The service is stopping: MQTT 5 devices are told why, then every connection is closed. */
  shutDown(): void {
    if (this.#state === 'connected' && this.#version === 5) this.#write(replies.disconnect(0x8b));
    this.#end();
  }

  // A PUBLISH of a live device may carry a whole message; everything else is small.
  #limitFor(type: number): number {
    const control = ingestLimits.maxControlPacketBytes;
    return type === packetTypes.publish && this.#state === 'connected'
      ? ingestLimits.maxMessageBytes + control
      : control;
  }

  // PUBLISH of a live device, the hot path, is read here; everything else goes through mqtt-packet's parser.
  #onPacketBytes(bytes: Buffer): void {
    if (this.#state !== 'connected' || (bytes[0] ?? 0) >> 4 !== packetTypes.publish) {
      if (this.#state === 'awaiting-connect' && this.#unspokenLevel(bytes)) {
        this.#refuse('unsupportedProtocolVersion');
        return;
      }
      this.#parser.parse(bytes);
      return;
    }
    this.#lastPacketAt = Date.now();
    const publish = readPublish(bytes, this.#version);
    if (publish === null) {
      this.#protocolError('malformedPacket');
      return;
    }
    this.#onPublish(publish, bytes);
  }

  /** A CONNECT of another MQTT version is refused with a CONNACK [MQTT-3.1.2-2] (x-ingest-rules.protocolVersions). */
  #unspokenLevel(bytes: Buffer): boolean {
    return (
      (bytes[0] ?? 0) >> 4 === packetTypes.connect &&
      this.context.faults.unknownProtocolLevelUnanswered !== true &&
      announcesUnspokenLevel(bytes)
    );
  }

  #onPacket(packet: Packet): void {
    this.#lastPacketAt = Date.now();
    if (this.#state === 'connected') this.#onSessionPacket(packet);
    else if (this.#state === 'awaiting-connect' && packet.cmd === 'connect')
      this.#connecting = this.#onConnect(packet);
    // Anything before CONNECT is a protocol violation [MQTT-3.1.0-1].
    else this.#destroy();
  }

  async #onConnect(connect: IConnectPacket): Promise<void> {
    clearTimeout(this.#connectDeadline);
    if (connect.protocolVersion !== 4 && connect.protocolVersion !== 5)
      return this.#refuse('unsupportedProtocolVersion');
    this.#version = connect.protocolVersion;
    const properties = connect.properties;
    if (properties?.receiveMaximum === 0 || properties?.maximumPacketSize === 0)
      return this.#protocolError('protocolError');
    this.#maximumPacketSize = properties?.maximumPacketSize ?? Number.POSITIVE_INFINITY;
    // Before authentication: refusing must cost an overloaded service nothing (x-ingest-rules.overload).
    if (this.context.overload.overloaded) {
      this.context.overload.counts.refusedConnections += 1;
      return this.#refuse('serverBusy');
    }
    // MQTT 5 enhanced authentication is not supported: a client naming a method must not be taken as authenticated by
    // it [MQTT-4.12.0-1] (x-ingest-rules.unsupported.enhancedAuthentication).
    if (
      connect.properties?.authenticationMethod !== undefined &&
      this.context.faults.authenticationMethodIgnored !== true
    )
      return this.#refuse('badAuthenticationMethod');
    this.#state = 'authenticating';
    this.socket.pause();
    this.#framer.pause();
    try {
      const authentication = await authenticateDevice(this.context.store, connect);
      if (!authentication.ok) return this.#refuse(authentication.refusal);
      if (this.#closed()) return;
      const session = await this.context.sessions.begin(authentication.stream);
      if (session === null) return this.#refuse('notAuthorized');
      // Set even when the socket closed meanwhile: closing ends the session it finds here.
      this.#ingest = new StreamIngest(
        session,
        this.context.bus,
        this.context.errors,
        this.context.overload,
        Date.now,
        this.context.faults,
      );
      if (this.#closed()) return;
      this.#state = 'connected';
      this.#write(replies.connackAccepted(this.#version));
      this.#startKeepAlive(connect.keepalive ?? 0);
      this.socket.resume();
      this.#framer.resume();
    } catch (error) {
      this.context.onFailure(error);
      this.#refuse('serverUnavailable');
    }
  }

  #onSessionPacket(packet: Packet): void {
    const version = this.#version;
    switch (packet.cmd) {
      case 'publish': // read by #onPacketBytes; mqtt-packet never sees one of a live device
        return;
      case 'pingreq':
        this.#write(replies.pingresp);
        return;
      case 'disconnect':
        this.#end();
        return;
      case 'subscribe':
        this.#write(replies.subackRefused(packet.messageId ?? 0, packet.subscriptions.length, version));
        return;
      case 'unsubscribe':
        this.#write(replies.unsuback(packet.messageId ?? 0, packet.unsubscriptions.length, version));
        return;
      case 'puback':
      case 'pubrec':
      case 'pubrel':
      case 'pubcomp':
        return; // the server never publishes to a device, so there is nothing to acknowledge
      default:
        // A second CONNECT [MQTT-3.1.0-2], an AUTH without an Authentication Method [MQTT-3.1.2-31], or a packet
        // only a server sends.
        this.#protocolError('protocolError');
        return;
    }
  }

  #onPublish(publish: PublishFields, bytes: Buffer): void {
    if (publish.qos > ingestLimits.highestQos) {
      this.#refuseQos();
      return;
    }
    if (publish.problem !== null) {
      this.#protocolError(publish.problem);
      return;
    }
    const outcome =
      this.#ingest?.handle(publish.topic, publish.payload, publish.payload.length) ?? 'otherTopic';
    // Only a topic that is not the stream's own can be an invalid name: the 1 kHz path does not look.
    const topicProblem =
      outcome === 'otherTopic' && this.context.faults.topicNamesUnchecked !== true
        ? topicNameProblem(publishTopicBytes(bytes))
        : null;
    if (topicProblem !== null) {
      this.#protocolError(topicProblem);
      return;
    }
    if (publish.qos === 1) this.#acknowledge(publish.messageId, outcome);
  }

  /** A packet over its bound, of which only `prefix` was read: a CONNECT is refused, a PUBLISH dropped. */
  #onOversized(header: PacketHeader, prefix: Buffer): void {
    this.#lastPacketAt = Date.now();
    if (header.type === packetTypes.connect && this.#state === 'awaiting-connect') {
      // Protocol name "MQTT" (2 + 4 bytes), then the protocol level.
      this.#version = prefix[6] === 5 ? 5 : 4;
      this.#refuse('packetTooLarge');
      return;
    }
    if (this.#state !== 'connected') {
      this.#destroy();
      return;
    }
    if (header.type !== packetTypes.publish) {
      this.#protocolError('packetTooLarge');
      return;
    }
    const qos = (header.flags >> 1) & 3;
    if (qos === 3) {
      this.#protocolError('malformedPacket');
      return;
    }
    if (qos > ingestLimits.highestQos) {
      this.#refuseQos();
      return;
    }
    const topicEnd = 2 + prefix.readUInt16BE(0);
    const headerEnd = topicEnd + (qos > 0 ? 2 : 0);
    if (headerEnd > prefix.length) {
      this.#destroy();
      return;
    }
    const messageId = qos > 0 ? prefix.readUInt16BE(topicEnd) : 0;
    const topicProblem =
      this.context.faults.topicNamesUnchecked === true
        ? null
        : topicNameProblem(prefix.subarray(2, topicEnd));
    if (topicProblem !== null || (qos > 0 && messageId === 0)) {
      this.#protocolError(topicProblem ?? 'protocolError');
      return;
    }
    const topic = prefix.toString('utf8', 2, topicEnd);
    const outcome = this.#ingest?.handle(topic, null, header.remainingLength - headerEnd) ?? 'otherTopic';
    if (qos === 1) this.#acknowledge(messageId, outcome);
  }

  /**
   * An accepted sample's PUBACK waits until the bus accepted it (x-ingest-rules.acknowledgedSample). A sample shed
   * for overload is never acknowledged as accepted, and a 3.1.1 PUBACK can only say accepted: that connection is
   * closed instead, once the replies before it are out, and the device sends the sample again when it reconnects.
   */
  #acknowledge(messageId: number, outcome: PublishOutcome): void {
    if (outcome === 'service_overloaded' && this.#version === 4) {
      this.#end();
      return;
    }
    const limit = this.context.faults.reasonStringOverMaximumPacketSize
      ? Number.POSITIVE_INFINITY
      : this.#maximumPacketSize;
    const reply = replies.puback(messageId, outcome, this.#version, limit);
    this.#acknowledgements.add(reply, outcome === 'accepted' ? this.context.bus.accepted() : null);
  }

  /** MQTT 5 names the reason [MQTT-3.3.1-4]; MQTT 3.1.1 cannot refuse a QoS, so the connection is closed. */
  #refuseQos(): void {
    if (this.#version === 5) {
      this.#write(replies.disconnect(qosNotSupported));
      this.#end();
      return;
    }
    this.#destroy();
  }

  /**
   * A packet that breaks the protocol, or cannot be read (x-ingest-rules.protocolErrors): MQTT 5 says why, in the
   * CONNACK while the CONNECT is answered and in a DISCONNECT after it [MQTT-4.13.1-1]; MQTT 3.1.1 has no word for it
   * and only closes, as does a connection whose CONNECT was never read (its version is unknown: 4 until then).
   */
  #protocolError(kind: ProtocolErrorKind): void {
    if (this.#version !== 5 || this.context.faults.protocolErrorsUnexplained === true) {
      this.#destroy();
      return;
    }
    this.#write(
      this.#state === 'connected'
        ? replies.disconnect(protocolErrorCodes[kind])
        : replies.connackProtocolError(kind),
    );
    this.#end();
  }

  #refuse(refusal: ConnectRefusal): void {
    this.#write(replies.connackRefused(refusal, this.#version));
    this.#end();
  }

  #startKeepAlive(keepAliveSeconds: number): void {
    if (keepAliveSeconds === 0) return;
    this.#keepAliveMilliseconds = keepAliveSeconds * 1000 * ingestLimits.keepAliveTimeoutFactor;
    this.#armKeepAlive(this.#keepAliveMilliseconds);
  }

  // One timer per connection, re-armed for the remainder rather than reset on each of 1,000 packets a second.
  #armKeepAlive(delay: number): void {
    this.#keepAliveTimer = setTimeout(() => {
      const silent = Date.now() - this.#lastPacketAt;
      if (silent >= this.#keepAliveMilliseconds) this.#destroy();
      else this.#armKeepAlive(this.#keepAliveMilliseconds - silent);
    }, delay);
  }

  #write(bytes: Buffer): void {
    if (this.#state === 'closed' && !this.socket.writable) return;
    if (this.socket.writableLength > maxUnreadReplyBytes) {
      this.#destroy();
      return;
    }
    this.socket.write(bytes);
  }

  // A method, so that TypeScript does not narrow the state across an await.
  #closed(): boolean {
    return this.#state === 'closed';
  }

  /** Closes once what was written (a refusal, a DISCONNECT) has been sent, without waiting for the device. */
  #end(): void {
    this.#stop();
    this.socket.destroySoon();
  }

  #destroy(): void {
    this.#stop();
    this.socket.destroy();
  }

  #stop(): void {
    this.#state = 'closed';
    this.#framer.stop();
    clearTimeout(this.#connectDeadline);
    clearTimeout(this.#keepAliveTimer);
  }

  async #onClose(): Promise<void> {
    this.#stop();
    await this.#connecting;
    const ingest = this.#ingest;
    if (ingest === null) return;
    this.context.errors.forget(ingest.session.streamId);
    await this.context.sessions.end(ingest.session).catch(this.context.onFailure);
  }
}

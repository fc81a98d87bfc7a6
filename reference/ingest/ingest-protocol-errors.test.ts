import { generate, type Packet } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { deviceTelemetryAddress } from '../../generated/messages/device-telemetry.js';
import { ingestLimits } from './ingest-rules.js';
import { publishPropertyProblem } from './publish-properties.js';
import { eventTypesOf, eventually, useIngestFixture } from './testing/ingest-fixture.js';
import {
  connectedDevice,
  connectPacket,
  publishBytes,
  type RawDevice,
  rawDevice,
  samplePublish,
} from './testing/raw-device.js';

/** The stream's own topic, as the spec's channel address makes it. */
const topicOf = (streamId: string) => deviceTelemetryAddress({ streamId });

/** The DISCONNECT's reason code the server sent before closing, or null when it closed without one. */
async function disconnectedWith(device: RawDevice): Promise<number | null> {
  await device.closed();
  const last = device.received.at(-1) as (Packet & { reasonCode?: number }) | undefined;
  return last?.cmd === 'disconnect' ? (last.reasonCode ?? 0) : null;
}

/** Over maxMessageBytes: the broker reads only the head of such a PUBLISH and never buffers the rest. */
const megabyte = Buffer.alloc(1024 * 1024, 0x20);

describe('protocol errors of ingest (x-ingest-rules.protocolErrors)', () => {
  const fixture = useIngestFixture();

  it.each([
    ['Receive Maximum', { receiveMaximum: 0 }],
    ['Maximum Packet Size', { maximumPacketSize: 0 }],
  ])(
    'MQTT 5: a CONNECT with a %s of 0 gets CONNACK 0x82 Protocol Error, and the stream stays idle',
    async (_name, properties) => {
      const stream = await fixture().createStream();
      const device = await rawDevice(fixture().server.port, 5);
      device.send(connectPacket(stream, 5, { properties }));
      expect(await device.next((packet) => packet.cmd === 'connack')).toMatchObject({ reasonCode: 0x82 });
      await device.closed();
      expect(await eventTypesOf(stream)).toEqual([]);
    },
  );

  it.each([
    ['a Topic Alias gets DISCONNECT 0x94 Topic Alias invalid', { topicAlias: 1 }, 0x94],
    ['a Subscription Identifier gets DISCONNECT 0x82 Protocol Error', { subscriptionIdentifier: 1 }, 0x82],
  ])('MQTT 5: a PUBLISH with %s, and its sample is not taken', async (_name, properties, code) => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 5);
    device.send(samplePublish(stream.id, { properties }));
    expect(await disconnectedWith(device)).toBe(code);
    expect(stream.samples()).toEqual([]);
    await eventually(async () => (await eventTypesOf(stream)).join() === 'device.online,device.offline');
  });

  it('MQTT 5: a PUBLISH with every property a device may send is taken', async () => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 5);
    device.send(
      samplePublish(stream.id, {
        properties: {
          payloadFormatIndicator: true,
          messageExpiryInterval: 60,
          contentType: 'application/json',
          responseTopic: 'replies/1',
          correlationData: Buffer.from([1, 2, 3]),
          userProperties: { site: 'plant-3', line: ['a', 'b'] },
        },
      }),
    );
    expect(await device.next((packet) => packet.cmd === 'puback')).toMatchObject({ reasonCode: 0 });
    expect(stream.samples()).toHaveLength(1);
    expect(device.isClosed()).toBe(false);
    device.end();
  });

  it.each<[string, Packet]>([
    ['an AUTH', { cmd: 'auth', reasonCode: 0x18, properties: { authenticationMethod: 'SCRAM-SHA-256' } }],
    ['a second CONNECT', connectPacket({ id: 'stm_again', key: 'stk_again' }, 5)],
    ['a PINGRESP, which only a server sends', { cmd: 'pingresp' }],
  ])('MQTT 5: %s after CONNACK gets DISCONNECT 0x82 Protocol Error', async (_name, packet) => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 5);
    device.send(packet);
    expect(await disconnectedWith(device)).toBe(0x82);
  });

  it.each<[string, (streamId: string) => Buffer]>([
    // A SUBSCRIBE's fixed header must have flags 0010.
    ['a SUBSCRIBE with the wrong flags', () => Buffer.from([0x80, 0x06, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00])],
    // Properties whose length runs past the packet.
    [
      'a PUBLISH whose properties run past its end',
      (streamId) => {
        const packet = generate(samplePublish(streamId, { qos: 0 }), { protocolVersion: 5 });
        packet[2 + 2 + packet.readUInt16BE(2)] = 0x7f;
        return packet;
      },
    ],
    [
      'a PUBLISH with a property no PUBLISH carries (Session Expiry Interval)',
      (streamId) =>
        publishBytes(topicOf(streamId), 5, {
          qos: 0,
          properties: Buffer.from([0x11, 0, 0, 0, 1]),
        }),
    ],
    [
      'a PUBLISH whose Content Type is not UTF-8',
      (streamId) =>
        publishBytes(topicOf(streamId), 5, {
          qos: 0,
          properties: Buffer.from([0x03, 0, 2, 0x61, 0xff]),
        }),
    ],
  ])('MQTT 5: %s gets DISCONNECT 0x81 Malformed Packet', async (_name, bytes) => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 5);
    device.send(bytes(stream.id));
    expect(await disconnectedWith(device)).toBe(0x81);
    expect(stream.samples()).toEqual([]);
  });

  /** PUBLISHes that break the protocol's rules for topic names, QoS and packet identifiers, with Mosquitto's answer. */
  const brokenPublishes: Array<[string, number, (streamId: string, version: 4 | 5) => Buffer]> = [
    ['to a topic with the wildcard +', 0x82, (id, version) => publishBytes(`${topicOf(id)}/+`, version)],
    ['to the topic #', 0x82, (_id, version) => publishBytes('#', version)],
    ['to an empty topic without a Topic Alias', 0x82, (_id, version) => publishBytes('', version)],
    [
      'at QoS 1 with packet identifier 0',
      0x82,
      (id, version) => publishBytes(topicOf(id), version, { messageId: 0 }),
    ],
    ['with both QoS bits set', 0x81, (id, version) => publishBytes(topicOf(id), version, { qos: 3 })],
    ['to a topic holding U+0000', 0x81, (id, version) => publishBytes(`${topicOf(id)}\u0000`, version)],
    [
      'to a topic that is not UTF-8',
      0x81,
      (id, version) => publishBytes(Buffer.concat([Buffer.from(topicOf(id)), Buffer.from([0xff])]), version),
    ],
  ];

  it.each(brokenPublishes)(
    'MQTT 5: a PUBLISH %s gets DISCONNECT with reason code %d',
    async (_name, code, bytes) => {
      const stream = await fixture().createStream();
      const { device } = await connectedDevice(fixture().server.port, stream, 5);
      device.send(bytes(stream.id, 5));
      expect(await disconnectedWith(device)).toBe(code);
      expect(stream.samples()).toEqual([]);
    },
  );

  it.each(brokenPublishes)(
    'MQTT 3.1.1: a PUBLISH %s closes the connection without an answer',
    async (_name, _code, bytes) => {
      const stream = await fixture().createStream();
      const { device } = await connectedDevice(fixture().server.port, stream, 4);
      device.send(bytes(stream.id, 4));
      await device.closed();
      expect(device.received.map((received) => received.cmd)).toEqual(['connack']);
      expect(stream.samples()).toEqual([]);
    },
  );

  it.each<[string, number, (streamId: string) => Buffer]>([
    ['to a topic with a wildcard', 0x82, (id) => publishBytes(`${topicOf(id)}/#`, 5, { payload: megabyte })],
    [
      'with packet identifier 0',
      0x82,
      (id) => publishBytes(topicOf(id), 5, { messageId: 0, payload: megabyte }),
    ],
    ['with both QoS bits set', 0x81, (id) => publishBytes(topicOf(id), 5, { qos: 3, payload: megabyte })],
  ])(
    'MQTT 5: a PUBLISH too large to be buffered, %s, gets DISCONNECT with reason code %d',
    async (_name, code, bytes) => {
      const stream = await fixture().createStream();
      const { device } = await connectedDevice(fixture().server.port, stream, 5);
      device.send(bytes(stream.id));
      expect(await disconnectedWith(device)).toBe(code);
    },
  );

  it('MQTT 5: a packet other than PUBLISH over maxControlPacketBytes gets DISCONNECT 0x95 Packet too large', async () => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 5);
    device.send({
      cmd: 'subscribe',
      messageId: 1,
      subscriptions: [{ topic: 'x'.repeat(ingestLimits.maxControlPacketBytes), qos: 0 }],
    });
    expect(await disconnectedWith(device)).toBe(0x95);
  });

  it.each<[string, (streamId: string) => Packet | Buffer]>([
    ['a second CONNECT', () => connectPacket({ id: 'stm_again', key: 'stk_again' }, 4)],
    ['a SUBSCRIBE with the wrong flags', () => Buffer.from([0x80, 0x06, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00])],
    ['a packet of the reserved type 15', () => Buffer.from([0xf0, 0x00])],
  ])('MQTT 3.1.1: %s closes the connection without an answer', async (_name, packet) => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 4);
    device.send(packet(stream.id));
    await device.closed();
    expect(device.received.map((received) => received.cmd)).toEqual(['connack']);
  });

  it("MQTT 5: a refusal's reason string is left out when it would take the PUBACK over the client's Maximum Packet Size", async () => {
    const [stream, other] = [await fixture().createStream(), await fixture().createStream()];
    const roomy = await connectedDevice(fixture().server.port, stream, 5, {
      properties: { maximumPacketSize: 1000 },
    });
    roomy.device.send(samplePublish(other.id, { messageId: 2 }));
    const explained = await roomy.device.next((packet) => packet.cmd === 'puback');
    expect(explained).toMatchObject({ reasonCode: 0x87, properties: { reasonString: 'otherTopic' } });
    roomy.device.end();
    // The explained PUBACK's size: its fixed header (two bytes) and its remaining length.
    const explainedBytes = 2 + (explained.length ?? 0);
    await eventually(async () => (await eventTypesOf(stream)).length === 2);
    const tight = await connectedDevice(fixture().server.port, stream, 5, {
      properties: { maximumPacketSize: explainedBytes - 1 },
    });
    tight.device.send(samplePublish(other.id, { messageId: 3 }));
    const bare = await tight.device.next((packet) => packet.cmd === 'puback');
    expect(bare).toMatchObject({ messageId: 3, reasonCode: 0x87 });
    expect((bare as { properties?: object }).properties).toBeUndefined();
    expect(tight.device.isClosed()).toBe(false);
    tight.device.end();
  });
});

describe('publishPropertyProblem', () => {
  const properties = (...bytes: number[]) => Buffer.from(bytes);
  it.each<[string, Buffer, string | null]>([
    ['none', properties(), null],
    ['a Payload Format Indicator and a Message Expiry Interval', properties(0x01, 1, 0x02, 0, 0, 0, 9), null],
    ['a Content Type', properties(0x03, 0, 2, 0x61, 0x62), null],
    ['a User Property (two strings)', properties(0x26, 0, 1, 0x61, 0, 1, 0x62), null],
    ['a Topic Alias', properties(0x23, 0, 1), 'topicAliasInvalid'],
    ['a Subscription Identifier', properties(0x0b, 1), 'protocolError'],
    [
      'a property a PUBLISH cannot carry (Session Expiry Interval)',
      properties(0x11, 0, 0, 0, 1),
      'malformedPacket',
    ],
    ['a string that runs past the end', properties(0x08, 0, 9, 0x61), 'malformedPacket'],
    ['a string length cut short', properties(0x08, 0), 'malformedPacket'],
    ['a User Property without its value', properties(0x26, 0, 1, 0x61), 'malformedPacket'],
    ['a Content Type that is not UTF-8', properties(0x03, 0, 2, 0x61, 0xff), 'malformedPacket'],
    ['a Response Topic holding U+0000', properties(0x08, 0, 2, 0x61, 0x00), 'malformedPacket'],
    ['a User Property value that is not UTF-8', properties(0x26, 0, 1, 0x61, 0, 1, 0xc3), 'malformedPacket'],
    ['Correlation Data, binary, with any bytes', properties(0x09, 0, 2, 0xff, 0x00), null],
    ['a fixed-size property cut short', properties(0x02, 0, 0), 'malformedPacket'],
  ])('%s', (_name, bytes, problem) => {
    expect(publishPropertyProblem(bytes, 0, bytes.length)).toBe(problem);
  });
});

import { generate, type IConnectPacket } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { announcesUnspokenLevel } from './connect-protocol.js';

const connect = (overrides: Partial<IConnectPacket> = {}): IConnectPacket => ({
  cmd: 'connect',
  protocolId: 'MQTT',
  protocolVersion: 4,
  clean: true,
  clientId: 'device',
  keepalive: 60,
  ...overrides,
});

/** The packet's bytes with the protocol level (the byte after the protocol name) set to `level`. */
function withLevel(packet: Buffer, level: number): Buffer {
  const copy = Buffer.from(packet);
  let offset = 1;
  while ((copy[offset] ?? 0) & 0x80) offset += 1;
  offset += 1;
  copy[offset + 2 + copy.readUInt16BE(offset)] = level;
  return copy;
}

describe('announcesUnspokenLevel (x-ingest-rules.protocolVersions)', () => {
  const v4 = generate(connect());
  it.each([
    ['MQTT 3.1.1', v4, false],
    ['MQTT 5', generate(connect({ protocolVersion: 5 }), { protocolVersion: 5 }), false],
    ['MQTT 3.1 (MQIsdp, level 3)', generate(connect({ protocolId: 'MQIsdp', protocolVersion: 3 })), true],
    ['level 3 named MQTT', withLevel(v4, 3), true],
    ['level 6', withLevel(v4, 6), true],
    ['level 0', withLevel(v4, 0), true],
    ['a bridge level (0x84)', withLevel(v4, 0x84), true],
    // A remaining length of two bytes: the name and level are read after both.
    [
      'level 6 after a long remaining length',
      withLevel(generate(connect({ clientId: 'd'.repeat(200) })), 6),
      true,
    ],
    ['MQTT 3.1.1 after a long remaining length', generate(connect({ clientId: 'd'.repeat(200) })), false],
  ])('%s: %s', (_name, packet, unspoken) => {
    expect(announcesUnspokenLevel(packet)).toBe(unspoken);
  });

  it('says nothing of another protocol name or of a packet too short to hold the level', () => {
    const otherName = Buffer.from(v4);
    otherName.write('MQTX', 4, 'latin1');
    expect(announcesUnspokenLevel(withLevel(otherName, 6))).toBe(false);
    expect(announcesUnspokenLevel(v4.subarray(0, 8))).toBe(false);
    expect(announcesUnspokenLevel(v4.subarray(0, 3))).toBe(false);
  });
});

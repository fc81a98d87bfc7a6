import { describe, expect, it } from 'vitest';
import { deviceTelemetryAddress } from '../../generated/messages/device-telemetry.js';
import { eventually, useIngestFixture } from './testing/ingest-fixture.js';
import { connectedDevice } from './testing/raw-device.js';

const versions = [4, 5] as const;
/** The refusal a CONNACK carries, whatever the version: 3.1.1 return code or MQTT 5 reason code. */
const refusalOf = (connack: { returnCode?: number; reasonCode?: number }) =>
  connack.reasonCode ?? connack.returnCode;
const notAuthorized = { 4: 5, 5: 0x87 } as const;
const badCredentials = { 4: 4, 5: 0x86 } as const;

describe('device authentication (x-ingest-rules.authentication)', () => {
  const fixture = useIngestFixture();

  for (const version of versions) {
    describe(`MQTT ${version === 4 ? '3.1.1' : '5'}`, () => {
      it('refuses a wrong key as not authorized, and nothing else happens', async () => {
        const stream = await fixture().createStream();
        const { device, connack } = await connectedDevice(
          fixture().server.port,
          { ...stream, key: 'sk_wrong' },
          version,
        );
        expect(refusalOf(connack as never)).toBe(notAuthorized[version]);
        await device.closed();
        expect(await fixture().store.streams.getById(stream.id)).toMatchObject({ status: 'idle' });
        expect(await stream.events()).toEqual([]);
        expect(stream.messages).toEqual([]);
      });

      it('refuses an unknown stream and a deleted one as not authorized', async () => {
        const stream = await fixture().createStream();
        const unknown = await connectedDevice(
          fixture().server.port,
          { ...stream, id: 'stm_unknown0000' },
          version,
        );
        expect(refusalOf(unknown.connack as never)).toBe(notAuthorized[version]);
        await fixture().store.streams.delete(stream.accountId, stream.id);
        const deleted = await connectedDevice(fixture().server.port, stream, version);
        expect(refusalOf(deleted.connack as never)).toBe(notAuthorized[version]);
        await deleted.device.closed();
      });

      it('refuses a second connection for a live stream; the first keeps publishing', async () => {
        const stream = await fixture().createStream();
        const first = await connectedDevice(fixture().server.port, stream, version);
        expect(refusalOf(first.connack as never)).toBe(0);
        const second = await connectedDevice(fixture().server.port, stream, version);
        expect(refusalOf(second.connack as never)).toBe(notAuthorized[version]);
        await second.device.closed();
        first.device.send({
          cmd: 'publish',
          topic: deviceTelemetryAddress({ streamId: stream.id }),
          payload: JSON.stringify({ ts: 1, values: { rpm: 1 } }),
          qos: 1,
          messageId: 1,
          dup: false,
          retain: false,
        });
        await first.device.next((packet) => packet.cmd === 'puback');
        expect(stream.samples()).toEqual([{ ts: 1, values: { rpm: 1 } }]);
        expect((await stream.events()).map((event) => event.type)).toEqual(['device.online']);
        first.device.end();
        await eventually(async () => (await stream.events()).length === 2);
      });

      it('refuses a CONNECT without a password as bad user name or password', async () => {
        const stream = await fixture().createStream();
        const { connack, device } = await connectedDevice(fixture().server.port, stream, version, {
          password: undefined,
        } as never);
        expect(refusalOf(connack as never)).toBe(badCredentials[version]);
        await device.closed();
      });
    });
  }

  it('MQTT 5: refuses a CONNECT naming an Authentication Method with 0x8C, its good password notwithstanding', async () => {
    const stream = await fixture().createStream();
    const { connack, device } = await connectedDevice(fixture().server.port, stream, 5, {
      properties: { authenticationMethod: 'SCRAM-SHA-256' },
    });
    expect(refusalOf(connack as never)).toBe(0x8c);
    await device.closed();
    expect(await fixture().store.streams.getById(stream.id)).toMatchObject({ status: 'idle' });
    expect(await stream.events()).toEqual([]);
  });
});

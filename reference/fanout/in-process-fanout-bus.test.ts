import { describe, expect, it } from 'vitest';
import type { LiveMessage } from './fanout-bus.js';
import { InProcessFanoutBus } from './in-process-fanout-bus.js';

const sample = { ts: 1, values: { rpm: 1 } };
const telemetry = (streamId: string) => ({ type: 'telemetry' as const, streamId, receivedAt: 1, sample });

describe('InProcessFanoutBus', () => {
  it('numbers each stream from 1 without gaps, independently of other streams', () => {
    const bus = new InProcessFanoutBus();
    const seen: LiveMessage[] = [];
    bus.subscribe('stm_a', (message) => seen.push(message));
    bus.publish(telemetry('stm_a'));
    bus.publish(telemetry('stm_b'));
    bus.publish({ type: 'status', streamId: 'stm_a', status: 'live', subscriberCount: 1 });
    expect(seen.map((message) => [message.streamId, message.seq, message.type])).toEqual([
      ['stm_a', 1, 'telemetry'],
      ['stm_a', 2, 'status'],
    ]);
    expect(bus.publish(telemetry('stm_b')).seq).toBe(2);
  });

  it('hands every stream to listeners of all streams, and stops after unsubscribe', () => {
    const bus = new InProcessFanoutBus();
    const seen: string[] = [];
    const stop = bus.subscribeAll((message) => seen.push(`${message.streamId}#${message.seq}`));
    bus.publish(telemetry('stm_a'));
    bus.publish(telemetry('stm_b'));
    stop();
    bus.publish(telemetry('stm_a'));
    expect(seen).toEqual(['stm_a#1', 'stm_b#1']);
  });

  it('keeps delivering to the other listeners when one throws', () => {
    const errors: unknown[] = [];
    const bus = new InProcessFanoutBus((error) => errors.push(error));
    const seen: number[] = [];
    bus.subscribe('stm_a', () => {
      throw new Error('listener bug');
    });
    bus.subscribe('stm_a', (message) => seen.push(message.seq));
    bus.publish(telemetry('stm_a'));
    expect(seen).toEqual([1]);
    expect(errors).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { isWireShaped, wireShaped } from './wire-shaped.js';

describe('wireShaped', () => {
  it('marks the body itself, and nothing else', () => {
    const body = wireShaped({ id: 'stm_1', title: 'Pump' });
    expect(isWireShaped(body)).toBe(true);
    expect(isWireShaped({ id: 'stm_1', title: 'Pump' })).toBe(false);
    for (const other of [null, undefined, 'text', 3, true]) expect(isWireShaped(other)).toBe(false);
  });

  it('leaves what the body is on the wire and to its readers unchanged', () => {
    const body = wireShaped({ id: 'stm_1', title: 'Pump', metadata: { site: 'plant-3' } });
    expect(JSON.stringify(body)).toBe('{"id":"stm_1","title":"Pump","metadata":{"site":"plant-3"}}');
    expect(Object.keys(body)).toEqual(['id', 'title', 'metadata']);
    expect(body).toStrictEqual({ id: 'stm_1', title: 'Pump', metadata: { site: 'plant-3' } });
  });

  it('does not pass to a copy, which may have gained properties outside the schema', () => {
    const body = wireShaped({ id: 'stm_1' });
    expect(isWireShaped({ ...body, extra: true })).toBe(false);
    expect(isWireShaped(Object.assign({}, body))).toBe(false);
    expect(isWireShaped(structuredClone(body))).toBe(false);
  });
});

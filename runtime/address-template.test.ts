import { describe, expect, it } from 'vitest';
import { AddressParameterError, compileAddressTemplate } from './address-template.js';

type StreamParameters = { streamId: string };
const topic = compileAddressTemplate<StreamParameters>('devices/{streamId}', 'topic');
const path = compileAddressTemplate<StreamParameters>('/devices/{streamId}/live', 'path');
const whole = compileAddressTemplate<{ webhookUrl: string }>('{webhookUrl}', 'path');

describe('compileAddressTemplate', () => {
  it.each([
    ['topic', topic, { streamId: 'stm_8fJ2kQ9xLmN3pR7t' }, 'devices/stm_8fJ2kQ9xLmN3pR7t'],
    ['path', path, { streamId: 'stm_1' }, '/devices/stm_1/live'],
    ['path (percent-encoded)', path, { streamId: 'a b/c?d#e%' }, '/devices/a%20b%2Fc%3Fd%23e%25/live'],
    ['whole address (verbatim)', whole, { webhookUrl: 'https://h.example/x?y=1' }, 'https://h.example/x?y=1'],
  ])('%s builds and parses back', (_name, template, parameters, address) => {
    expect(template.build(parameters as never)).toBe(address);
    expect(template.parse(address)).toEqual(parameters);
  });

  it('lists the parameters of a template with several', () => {
    const several = compileAddressTemplate<{ site: string; sensor: string }>(
      'sites/{site}/sensors/{sensor}',
      'topic',
    );
    expect(several.parameterNames).toEqual(['site', 'sensor']);
    expect(several.parse('sites/north/sensors/7')).toEqual({ site: 'north', sensor: '7' });
  });

  it.each([
    ['a level separator', 'a/b'],
    ['a single-level wildcard', 'a+'],
    ['a multi-level wildcard', '#'],
    ['nothing', ''],
  ])('refuses a topic parameter holding %s', (_name, value) => {
    expect(() => topic.build({ streamId: value })).toThrow(AddressParameterError);
  });

  it('refuses an empty path parameter', () => {
    expect(() => path.build({ streamId: '' })).toThrow(/streamId = "": must not be empty/);
  });

  it.each([
    ['another prefix', topic, 'sensors/stm_1'],
    ['an extra level', topic, 'devices/stm_1/x'],
    ['a wildcard', topic, 'devices/+'],
    ['an empty parameter', topic, 'devices/'],
    ['a missing suffix', path, '/devices/stm_1'],
    ['a bad percent escape', path, '/devices/%E0%A4%A/live'],
  ])('parses %s to null', (_name, template, address) => {
    expect(template.parse(address)).toBeNull();
  });

  it('takes regular-expression characters of the template literally', () => {
    const dotted = compileAddressTemplate<{ id: string }>('a.b(c)/{id}', 'topic');
    expect(dotted.parse('aXb(c)/1')).toBeNull();
    expect(dotted.parse('a.b(c)/1')).toEqual({ id: '1' });
  });

  it.each([['unbalanced {'], ['{a}/{a}']])('refuses the malformed template %s', (template) => {
    expect(() => compileAddressTemplate(template, 'topic')).toThrow();
  });
});

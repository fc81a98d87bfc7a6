import { describe, expect, it } from 'vitest';
import * as bodyAndParams from './golden/body-and-params/expected/validators/index.js';
import * as eventsAndMessages from './golden/events-and-messages/expected/validators/index.js';
import * as jsonNumbers from './golden/json-numbers/expected/validators/index.js';
import * as responsesAndGuards from './golden/responses-and-guards/expected/validators/index.js';

// The golden outputs run: what each tiny spec says, the generated validators do.
const ok = (value: unknown) => ({ ok: true, value });
// A failure's `error` is a getter on its prototype (built on first read), so failures are matched by property.
const failed = (code: string, param?: string) =>
  expect.objectContaining({
    ok: false,
    error: expect.objectContaining({ code, ...(param === undefined ? {} : { param }) }),
  });

describe('golden validators behave as their specs say', () => {
  it.each([
    ['query default filled in', bodyAndParams.validateListWidgetsQuery, {}, ok({ limit: 10 })],
    ['query string coerced', bodyAndParams.validateListWidgetsQuery, { limit: '7' }, ok({ limit: 7 })],
    // Without x-parameter-values, Ajv's coercion reads what Number() reads.
    ['query exponent read', bodyAndParams.validateListWidgetsQuery, { limit: '1e1' }, ok({ limit: 10 })],
    [
      'query closed (x-unknown-parameters)',
      bodyAndParams.validateListWidgetsQuery,
      { size: '1' },
      failed('unknown_parameter', 'size'),
    ],
    [
      'query enum through a reference',
      bodyAndParams.validateListWidgetsQuery,
      { colour: 'blue' },
      failed('invalid_parameter', 'colour'),
    ],
    [
      'headers stay open',
      bodyAndParams.validateListWidgetsHeaders,
      { 'X-Trace-Id': 'abcdefgh', Via: 'proxy' },
      ok({ 'X-Trace-Id': 'abcdefgh', Via: 'proxy' }),
    ],
    [
      'required header',
      bodyAndParams.validateListWidgetsHeaders,
      {},
      failed('missing_parameter', 'X-Trace-Id'),
    ],
    [
      'path pattern',
      bodyAndParams.validateAddPartPath,
      { widgetId: 'nope' },
      failed('invalid_parameter', 'widgetId'),
    ],
    [
      'body not coerced',
      bodyAndParams.validateAddPartBody,
      { name: 'a', sizes: ['1'] },
      failed('invalid_parameter', 'sizes.0'),
    ],
    [
      'property named title is validated',
      bodyAndParams.validateCreateWidgetBody,
      { name: 'a', title: 5 },
      failed('invalid_parameter', 'title'),
    ],
    ['catalogue codes', responsesAndGuards.validateUpdateThingBody2, {}, failed('field_invalid')],
    [
      'default where the catalogue lacks the role',
      responsesAndGuards.validateUpdateThingBody,
      { colour: 'x' },
      failed('unknown_parameter', 'colour'),
    ],
    [
      'response by status',
      responsesAndGuards.validateGetThingResponse200,
      { id: 't', createdAt: 'yesterday' },
      failed('field_invalid', 'createdAt'),
    ],
    [
      'default response',
      responsesAndGuards.validateGetThingResponseDefault,
      { error: {} },
      failed('field_missing', 'error.type'),
    ],
    [
      'webhook payload',
      eventsAndMessages.validateSensorOnlinePayload,
      { type: 'sensor.online', sensorId: 'x' },
      failed('invalid_parameter', 'sensorId'),
    ],
    [
      'inline message payload',
      eventsAndMessages.validateReadingsBatchPayload,
      { readings: [{ value: 'a' }] },
      failed('invalid_parameter', 'readings.0.value'),
    ],
    [
      'text message payload',
      eventsAndMessages.validateReadingsRawLinePayload,
      'x'.repeat(101),
      failed('invalid_parameter'),
    ],
  ] as const)('%s', (_name, validate, value, want) => {
    expect(validate(value)).toEqual(want);
  });

  describe('x-parameter-values.numbers: json', () => {
    const query = jsonNumbers.validateListBooksQuery;
    it.each(['1e1', '0x10', ' 5', '+5', '5.0', '05', '', 'five'])(
      'a query integer written %j is refused',
      (limit) => {
        const result = query({ limit });
        expect(result).toEqual(failed('invalid_parameter', 'limit'));
        expect(result.ok ? null : result.error.message).toBe(
          'Invalid limit: must be an integer written in decimal digits, as JSON writes it.',
        );
      },
    );
    it.each([
      ['integer', { limit: '7' }, { limit: 7 }],
      ['default', {}, { limit: 10 }],
      ['number with fraction and exponent', { minRating: '-2.5e-1' }, { limit: 10, minRating: -0.25 }],
      ['nullable integer left to Ajv', { maxPages: '' }, { limit: 10, maxPages: null }],
      ['string untouched', { title: '05' }, { limit: 10, title: '05' }],
      ['boolean coerced', { signed: 'true' }, { limit: 10, signed: true }],
    ])('%s', (_name, value, want) => {
      expect(query(value)).toEqual(ok(want));
    });
    it('a parameter given twice is named as such', () => {
      const result = query({ limit: ['1', '2'], title: 'a' });
      expect(result.ok ? null : result.error).toMatchObject({
        code: 'invalid_parameter',
        param: 'limit',
        message: 'Invalid limit: must be given once, not 2 times.',
      });
      // A value of a wrong type that was given once keeps the type's words.
      const once = bodyAndParams.validateListWidgetsQuery({ limit: 'x' });
      expect(once.ok ? null : once.error.message).toBe('Invalid limit: must be integer.');
    });
    it.each([
      ['number written with a plus', query, { minRating: '+1' }, 'minRating'],
      ['bound still checked', query, { limit: '51' }, 'limit'],
      ['repeated parameter', query, { limit: ['1', '2'] }, 'limit'],
      ['path integer through a reference', jsonNumbers.validateListBooksPath, { shelf: '1.0' }, 'shelf'],
      ['header integer', jsonNumbers.validateListBooksHeaders, { 'X-Shard': '0x1' }, 'X-Shard'],
    ] as const)('%s is refused', (_name, validate, value, param) => {
      expect(validate(value)).toEqual(failed('invalid_parameter', param));
    });
    it('path and header integers are read', () => {
      expect(jsonNumbers.validateListBooksPath({ shelf: '0' })).toEqual(ok({ shelf: 0 }));
      expect(jsonNumbers.validateListBooksHeaders({ 'X-Shard': '-3' })).toEqual(ok({ 'X-Shard': -3 }));
    });
  });

  it('guards narrow', () => {
    const value: unknown = { id: 't', createdAt: '2026-01-01T00:00:00Z', home: null };
    expect(responsesAndGuards.isThing(value) && value.id).toBe('t');
    expect(() => eventsAndMessages.assertReading({})).toThrow('Missing required parameter: value.');
  });
});

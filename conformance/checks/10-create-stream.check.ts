import { describe } from 'vitest';
import {
  validateCreateStreamResponse201,
  validateCreateStreamResponse400,
} from '../../generated/validators/index.js';
import { check, expectThat } from '../harness/check.js';
import { send } from '../harness/probe.js';

describe('POST /streams', () => {
  check(
    ['EP-CREATE-STREAM', 'EP-CREATE-STREAM-201', 'STATE-STREAM-CREATE'],
    'a valid request creates an idle stream (201, schema)',
    async () => {
      const exchange = await send('POST', '/streams', { body: { title: 'Conformance pump' } });
      expectThat(exchange.response.status === 201, 'status 201', exchange);
      const verdict = validateCreateStreamResponse201(exchange.response.body);
      expectThat(
        verdict.ok,
        `a body valid against the 201 schema (${verdict.ok ? '' : verdict.error.message})`,
        exchange,
      );
      expectThat(verdict.value.status === 'idle', 'status idle on creation', exchange);
    },
  );

  check(
    ['EP-CREATE-STREAM-TITLE-MISSING', 'ERR-PARAM-REQUIRED', 'ERR-400'],
    'a missing title gives 400 param_required with param title',
    async () => {
      const exchange = await send('POST', '/streams', { body: {} });
      expectThat(exchange.response.status === 400, 'status 400', exchange);
      const verdict = validateCreateStreamResponse400(exchange.response.body);
      expectThat(verdict.ok, 'the error envelope', exchange);
      const { error } = verdict.value;
      expectThat(
        error.type === 'invalid_request_error' && error.code === 'param_required' && error.param === 'title',
        'invalid_request_error / param_required / param title',
        exchange,
      );
    },
  );
});

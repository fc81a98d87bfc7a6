import { describe, expect, it } from 'vitest';
import { ApiProblem, envelope, isErrorEnvelope } from './error-envelope.js';

describe('error envelope', () => {
  it('leaves param out when no parameter is at fault', () => {
    expect(envelope({ type: 'api_error', code: 'internal_error', message: 'Failed.' }, 'req_1')).toEqual({
      error: { type: 'api_error', code: 'internal_error', message: 'Failed.', requestId: 'req_1' },
    });
  });

  it.each([
    [{ error: { type: 'a', code: 'b', message: 'c', requestId: 'd' } }, true],
    [{ error: { type: 'a', code: 'b', message: 'c', requestId: 'd', param: 'title' } }, true],
    [{ error: { type: 'a', code: 'b', message: 'c' } }, false],
    [{ error: { type: 'a', code: 'b', message: 'c', requestId: 'd', param: 3 } }, false],
    [{ error: 'nope' }, false],
    [null, false],
  ])('recognises %j: %s', (value, want) => {
    expect(isErrorEnvelope(value)).toBe(want);
  });

  it('takes status and type from the catalogue entry', () => {
    const problem = new ApiProblem(
      'param_required',
      { status: 400, type: 'invalid_request_error', description: '' },
      'title is required.',
      'title',
    );
    expect([problem.status, problem.type, problem.toDetail()]).toEqual([
      400,
      'invalid_request_error',
      {
        type: 'invalid_request_error',
        code: 'param_required',
        message: 'title is required.',
        param: 'title',
      },
    ]);
  });
});

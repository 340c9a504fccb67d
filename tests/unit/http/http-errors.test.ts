import { describe, expect, it } from 'vitest';

import {
  ApiError,
  describeHttpError,
  describeStreamError,
  HTTP_ERROR_MESSAGES,
  isAbortError,
  isTrialExpired,
  networkError,
} from '../../../src/lib/http-errors';

describe('describeHttpError', () => {
  it.each([
    [401, { detail: 'Invalid email or password' }, 'Authentication required. Please log in again.'],
    [401, undefined, 'Authentication required. Please log in again.'],
    [403, { detail: 'Email not verified' }, 'Access forbidden. Insufficient permissions.'],
    [403, '', 'Access forbidden. Insufficient permissions.'],
    [404, { detail: 'Goal not found' }, 'Goal not found'],
    [404, { message: 'No such session' }, 'No such session'],
    [404, {}, 'Resource not found.'],
    [404, '<html>Not Found</html>', 'Resource not found.'],
    [500, { detail: 'boom' }, 'Server error. Please try again later.'],
    [502, '<html>Bad Gateway</html>', 'Server error. Please try again later.'],
    [503, { detail: 'Google sign-in is not configured' }, 'Server error. Please try again later.'],
    [400, { detail: 'Current password is incorrect' }, 'Current password is incorrect'],
    [
      409,
      { detail: 'An account with this email already exists' },
      'An account with this email already exists',
    ],
    [429, { message: 'Slow down' }, 'Slow down'],
    [400, { detail: '', message: 'From message' }, 'From message'],
    [418, {}, "HTTP 418: I'm a Teapot"],
    [400, null, 'HTTP 400: Bad Request'],
  ])('%i %j → %s', (status, body, message) => {
    const statusText = status === 418 ? "I'm a Teapot" : 'Bad Request';
    const error = describeHttpError(status, statusText, body);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  it('keeps the server detail raw beside the catalogue text', () => {
    expect(describeHttpError(403, 'Forbidden', { detail: 'Email not verified' }).detail).toBe(
      'Email not verified',
    );
    const list = [{ loc: ['body', 'email'], msg: 'bad', type: 'x' }];
    expect(describeHttpError(422, '', { detail: list }).detail).toBe(list);
    expect(describeHttpError(404, '', { message: 'gone' }).detail).toBe('gone');
    expect(describeHttpError(502, '', 'upstream down').detail).toBe('upstream down');
    expect(describeHttpError(500, '', '').detail).toBeUndefined();
    expect(describeHttpError(500, '', undefined).detail).toBeUndefined();
  });

  it('422 joins the list items msg with ", "', () => {
    const error = describeHttpError(422, 'Unprocessable Entity', {
      detail: [
        { loc: ['body', 'email'], msg: 'Invalid email', type: 'value_error' },
        { loc: ['body', 'password'], msg: 'Too short', type: 'value_error' },
      ],
    });
    expect(error.message).toBe('Invalid email, Too short');
  });

  it('422 writes an object detail as "field: values"', () => {
    const error = describeHttpError(422, 'Unprocessable Entity', {
      detail: { email: ['Invalid email', 'Already used'], target_value: 'Must be 1-999' },
    });
    expect(error.message).toBe('email: Invalid email, Already used; target_value: Must be 1-999');
  });

  it('422 falls back to the catalogue text', () => {
    expect(describeHttpError(422, 'Unprocessable Entity', {}).message).toBe(
      'Validation failed. Please check your input.',
    );
    expect(describeHttpError(422, 'Unprocessable Entity', { detail: [] }).message).toBe(
      'Validation failed. Please check your input.',
    );
    expect(describeHttpError(422, '', { detail: 'Title too long' }).message).toBe('Title too long');
  });

  it('without a status text the fallback is HTTP {status}', () => {
    expect(describeHttpError(409, '', {}).message).toBe('HTTP 409');
  });

  it('treats a 402 like any other status', () => {
    expect(describeHttpError(402, 'Payment Required', {}).message).toBe(
      'HTTP 402: Payment Required',
    );
    expect(describeHttpError(402, 'Payment Required', { detail: 'Upgrade' }).message).toBe(
      'Upgrade',
    );
  });
});

describe('the other errors', () => {
  it('a network error has status 0 and keeps its cause', () => {
    const cause = new TypeError('fetch failed');
    const error = networkError(cause);
    expect(error.status).toBe(0);
    expect(error.message).toBe(HTTP_ERROR_MESSAGES.network);
    expect(error.message).toBe('Network error. Please check your connection.');
    expect(error.cause).toBe(cause);
  });

  it('a stream error event carries the detail', () => {
    const error = describeStreamError({ detail: 'The model is unavailable' });
    expect(error.status).toBe(200);
    expect(error.message).toBe('The model is unavailable');
    expect(error.detail).toBe('The model is unavailable');
    expect(describeStreamError({}).message).toBe('Server error. Please try again later.');
  });

  it('spots TRIAL_EXPIRED in detail, message or text', () => {
    expect(isTrialExpired({ detail: 'TRIAL_EXPIRED' })).toBe(true);
    expect(isTrialExpired({ message: 'Your trial ended (TRIAL_EXPIRED)' })).toBe(true);
    expect(isTrialExpired({ detail: { code: 'TRIAL_EXPIRED' } })).toBe(true);
    expect(isTrialExpired('TRIAL_EXPIRED')).toBe(true);
    expect(isTrialExpired({ detail: 'Trial expired' })).toBe(false);
    expect(isTrialExpired({ other: 'TRIAL_EXPIRED' })).toBe(false);
    expect(isTrialExpired(null)).toBe(false);
  });

  it('recognises aborts', () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbortError(controller.signal.reason)).toBe(true);
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError(new ApiError(0, 'x'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { chat, errorBodyOf, userChat } from './helpers';

const hello = userChat('community/general', 'hello there');

// `Number('')` is 0: a parameter without a value (or without `=`) passed as zero, so a header
// asking `model_busy; retryAfter` got `Retry-After: 0` and `slow_headers; ms` answered at once.
describe('a fault parameter in the header without a value', () => {
  it.each([
    'model_busy; retryAfter',
    'model_busy; retryAfter=',
    'slow_headers; ms',
    'slow_headers; ms =  ',
  ])('is refused with 400 naming it: %s', async (header) => {
    const response = await chat(createEmulator(), hello, {
      headers: { 'x-emulator-fault': header },
    });
    const error = await errorBodyOf(response);
    expect(error).toMatchObject({ status: 400, param: 'x-emulator-fault' });
    expect(error.message).toMatch(/Invalid X-Emulator-Fault parameter '(retryAfter|ms)/);
  });

  it('with a value of 0 stays accepted', async () => {
    const response = await chat(createEmulator(), hello, {
      headers: { 'x-emulator-fault': 'model_busy; retryAfter=0' },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('0');
  });
});

import { describe, expect, it } from 'vitest';
import { createEmulator, type FaultRule } from '../src/index';
import { chat, errorBodyOf, userChat } from './helpers';

const hello = userChat('community/general', 'hello there');
const helloStreamed = userChat('community/general', 'hello there', { stream: true });

function withFault(fault: string) {
  return { headers: { 'x-emulator-fault': fault } };
}

// A parameter a fault does not act on used to be accepted and ignored, silently: a test asking a
// 503 for `retryAfter=3600` got a 503 without Retry-After and tested something else.
describe('a fault parameter the fault does not use', () => {
  it.each([
    ['rate_limit; ms=5', /'ms' does nothing with fault rate_limit, which takes only retryAfter/],
    ['bad_gateway; afterChunks=3', /'afterChunks' does nothing with fault bad_gateway/],
    ['no_finish; afterChunks=3', /'afterChunks' does nothing with fault no_finish/],
    ['stall_first_chunk; intervalMs=5', /'intervalMs' does nothing with fault stall_first_chunk/],
    ['gateway_timeout; retryAfter=3', /'retryAfter' does nothing with fault gateway_timeout/],
  ])('is refused in the header: %s', async (header, message) => {
    const error = await errorBodyOf(await chat(createEmulator(), hello, withFault(header)));
    expect(error).toMatchObject({ status: 400, param: 'x-emulator-fault' });
    expect(error.message).toMatch(message);
  });

  it.each([
    [{ fault: 'rate_limit', ms: 5 }, /ms: 'ms' does nothing with fault rate_limit/],
    [{ fault: 'no_finish', afterChunks: 3 }, /afterChunks: 'afterChunks' does nothing/],
    [{ fault: 'bad_gateway', retryAfter: 3 }, /'retryAfter' does nothing with fault bad_gateway/],
  ] as [FaultRule, RegExp][])('is refused when the scenario is loaded: %j', (rule, message) => {
    expect(() => createEmulator({ faults: [rule] })).toThrow(message);
    expect(() => createEmulator().injectFault(rule)).toThrow(message);
  });

  it('is accepted with each fault that uses it', async () => {
    const emulator = createEmulator();
    // The stream faults on a streamed request: on another, the fault itself would be refused.
    for (const [header, request] of [
      ['model_busy; retryAfter=2', hello],
      ['stall_stream; afterChunks=1; ms=1', helloStreamed],
      ['keepalive_first_chunk; ms=1; intervalMs=1', helloStreamed],
      ['empty_delta_stream; afterChunks=1; intervalMs=1', helloStreamed],
    ] as const) {
      const response = await chat(emulator, request, withFault(header));
      expect(response.status, header).not.toBe(400);
      await response.body?.cancel();
    }
  });
});

describe('service_unavailable with retryAfter', () => {
  it('sends Retry-After on its 503 when asked, none by default', async () => {
    const emulator = createEmulator();
    const asked = await chat(emulator, hello, withFault('service_unavailable; retryAfter=120'));
    expect(asked.status).toBe(503);
    expect(asked.headers.get('retry-after')).toBe('120');
    const plain = await chat(emulator, hello, withFault('service_unavailable'));
    expect(plain.status).toBe(503);
    expect(plain.headers.get('retry-after')).toBeNull();
  });

  it('takes retryAfter in a rule too', async () => {
    const emulator = createEmulator({ faults: [{ fault: 'service_unavailable', retryAfter: 30 }] });
    const response = await chat(emulator, hello);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
  });
});

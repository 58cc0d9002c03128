import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_KEYS } from '../src/index';
import { BASE, userChat } from './helpers';

// A chat request without a Content-Type is read as JSON and answered. Fault matching read its
// `model` and `stream` only when the type said "json", so a model-filtered rule and every stream
// fault let such a request by: the fault silently did not happen.

/** A chat request whose body is bytes, so fetch adds no Content-Type of its own. */
function chatWithoutType(
  emulator: ReturnType<typeof createEmulator>,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const request = new Request(`${BASE}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEFAULT_KEYS.full}`, ...headers },
    body: new TextEncoder().encode(JSON.stringify(body)),
  });
  expect(request.headers.has('content-type')).toBe(false);
  return emulator.fetch(request);
}

describe('faults on a chat request without a Content-Type', () => {
  it('a rule filtered on the model applies', async () => {
    const emulator = createEmulator({ latencyMs: 0 });
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    const response = await chatWithoutType(emulator, userChat('community/general', 'hi'));
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'all_providers_failed',
    );
  });

  it('a stream fault (rule or header) applies to its stream', async () => {
    const emulator = createEmulator({ latencyMs: 0 });
    const streamed = userChat('community/general', 'a b c d', { stream: true });
    const byHeader = await chatWithoutType(emulator, streamed, {
      'x-emulator-fault': 'stream_error; afterChunks=1',
    });
    expect(await byHeader.text()).toContain('"code":"provider_request_failed"');
    emulator.injectFault({ fault: 'stream_error', afterChunks: 1, times: 1 });
    const byRule = await chatWithoutType(emulator, streamed);
    expect(await byRule.text()).toContain('"code":"provider_request_failed"');
  });
});

import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createEmulator, DEFAULT_KEYS } from '../src/index';
import { gatewayHandlers } from '../src/msw';
import { caught, untilHeld, untilIdle, untilInflight } from '../src/testing';
import { type Json, parseSse, userChat } from './helpers';

const emulator = createEmulator();
const mswServer = setupServer(
  ...gatewayHandlers(emulator),
  ...gatewayHandlers(emulator, 'https://other.test/api/v1/'),
);

beforeAll(() => mswServer.listen({ onUnhandledFrame: 'error' }));
afterAll(() => mswServer.close());

const headers = {
  authorization: `Bearer ${DEFAULT_KEYS.full}`,
  'content-type': 'application/json',
};

describe('gatewayHandlers', () => {
  it('routes requests under the default base URL to the emulator', async () => {
    const before = emulator.counters.requests.models;
    const response = await fetch('https://gateway.test/v1/models', { headers });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Json).object).toBe('list');
    expect(emulator.counters.requests.models).toBe(before + 1);
  });

  it('routes a custom base URL with a path prefix', async () => {
    const response = await fetch('https://other.test/api/v1/chat/completions', {
      method: 'POST',
      headers,
      body: JSON.stringify(userChat('community/general', 'via msw')),
    });
    expect(((await response.json()) as Json).choices[0].message.content).toBe('Echo: via msw');
  });

  it('passes streams through', async () => {
    const response = await fetch('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers,
      body: JSON.stringify(userChat('community/streamer', 'hi', { stream: true })),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(parseSse(await response.text()).at(-1)).toBe('[DONE]');
  });

  it('turns drop_connection into a network error', async () => {
    await expect(
      fetch('https://gateway.test/v1/models', {
        headers: { ...headers, 'x-emulator-fault': 'drop_connection' },
      }),
    ).rejects.toBeInstanceOf(TypeError);
  });

  it('passes a stream_cut through as a failing body read', async () => {
    const response = await fetch('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { ...headers, 'x-emulator-fault': 'stream_cut' },
      body: JSON.stringify(userChat('community/streamer', '[[words:9]]', { stream: true })),
    });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('releases the slot of a stream the client aborts', async () => {
    const controller = new AbortController();
    const response = await fetch('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers,
      body: JSON.stringify(userChat('community/streamer', '[[chunks:5000]]', { stream: true })),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(1);
    controller.abort();
    await expect
      .poll(() => emulator.counters.inflight[DEFAULT_KEYS.full], { timeout: 10_000 })
      .toBe(0);
  });

  // msw reports a handler that throws ("[MSW] Encountered an unhandled exception …") on
  // console.error; an abort is the client's doing, so it ends as quietly as over HTTP.
  it.each([
    ['held', undefined],
    ['slow (slow_headers)', 'slow_headers; ms=60000'],
  ])(
    'a request aborted while %s ends quietly: the client has its AbortError, msw logs nothing',
    async (_, fault) => {
      const logged = vi.spyOn(console, 'error');
      onTestFinished(() => logged.mockRestore());
      const release = fault ? () => {} : emulator.holdAnswers('chat');
      onTestFinished(release);
      const controller = new AbortController();
      const answer = fetch('https://gateway.test/v1/chat/completions', {
        method: 'POST',
        headers: fault ? { ...headers, 'x-emulator-fault': fault } : headers,
        body: JSON.stringify(userChat('community/general', 'hi')),
        signal: controller.signal,
      });
      // Held at the hold, or in flight in its slow_headers wait (no hold then).
      await (fault ? untilInflight : untilHeld)(emulator, 1);
      controller.abort();
      expect((await caught(answer)).name).toBe('AbortError');
      await untilIdle(emulator);
      // The handler has settled once the emulator freed the slot; msw logs right after it does.
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(logged).not.toHaveBeenCalled();
    },
  );

  it('passes multipart bodies', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array([0x66, 0x4c, 0x61, 0x43, 0, 0, 0, 0])]), 'a.flac');
    const response = await fetch('https://gateway.test/v1/audio/transcriptions', {
      method: 'POST',
      headers: { authorization: headers.authorization },
      body: form,
    });
    expect(response.status).toBe(200);
  });
});

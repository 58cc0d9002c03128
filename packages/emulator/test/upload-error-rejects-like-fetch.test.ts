import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_KEYS } from '../src/index';
import { caught, untilIdle, untilInflight } from '../src/testing/index';
import { BASE } from './helpers';

// An upload whose body stream fails is a network failure, as fetch treats it: the call rejects
// with a TypeError. It used to resolve to a 500 "infergate emulator internal error".

describe('a request body stream that errors during the upload', () => {
  it('makes emulator.fetch reject with a TypeError (the stream error as its cause) and frees the slot', async () => {
    const emulator = createEmulator({ latencyMs: 0 });
    let control!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        control = controller;
        controller.enqueue(new TextEncoder().encode('{"model":"community/general",'));
      },
    });
    const answer = emulator.fetch(`${BASE}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEFAULT_KEYS.full}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    await untilInflight(emulator, 1);
    const broke = new Error('upload broke');
    control.error(broke);
    const error = await caught(answer);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.cause).toBe(broke);
    await untilIdle(emulator);
  });
});

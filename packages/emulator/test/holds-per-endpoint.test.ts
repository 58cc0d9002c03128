import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_KEYS } from '../src/index';
import { untilHeld, untilIdle } from '../src/testing/index';
import { call, chat, userChat } from './helpers';

// Holds on different endpoints are independent: a hold on embeddings neither ends nor replaces
// the hold on chat, and each release frees its own endpoint's requests only.

describe('holdAnswers on two endpoints', () => {
  it('keeps both holds, and each release frees its own endpoint only', async () => {
    const emulator = createEmulator();
    const releaseChat = emulator.holdAnswers('chat');
    const releaseEmbeddings = emulator.holdAnswers('embeddings');
    const settled: string[] = [];
    const chatAnswer = chat(emulator, userChat('community/general', 'hi')).then((response) => {
      settled.push('chat');
      return response;
    });
    const embedAnswer = call(emulator, '/embeddings', {
      body: { model: 'all-minilm-l6-v2', input: 'hi' },
    }).then((response) => {
      settled.push('embeddings');
      return response;
    });
    // The chat request, sent after the second hold, is held too.
    await untilHeld(emulator, 2);
    releaseEmbeddings();
    expect((await embedAnswer).status).toBe(200);
    expect(settled).toEqual(['embeddings']);
    // Released embeddings answer at once; chat is still held.
    const next = await call(emulator, '/embeddings', {
      body: { model: 'all-minilm-l6-v2', input: 'again' },
    });
    expect(next.status).toBe(200);
    expect(emulator.counters.held[DEFAULT_KEYS.full]).toBe(1);
    expect(settled).toEqual(['embeddings']);
    releaseChat();
    expect((await chatAnswer).status).toBe(200);
    await untilIdle(emulator);
  });

  it('a release of the chat hold leaves the embeddings hold on', async () => {
    const emulator = createEmulator();
    const releaseEmbeddings = emulator.holdAnswers('embeddings');
    const releaseChat = emulator.holdAnswers('chat');
    releaseChat();
    expect((await chat(emulator, userChat('community/general', 'hi'))).status).toBe(200);
    const embedAnswer = call(emulator, '/embeddings', {
      body: { model: 'all-minilm-l6-v2', input: 'hi' },
    });
    await untilHeld(emulator, 1);
    releaseEmbeddings();
    expect((await embedAnswer).status).toBe(200);
    await untilIdle(emulator);
  });
});

import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { untilHeld, untilIdle } from '../src/testing/index';
import { call, chat, errorBodyOf, type Json, userChat } from './helpers';

// `holdAnswers` holds what the gateway accepts, nothing else: a request it would refuse at once
// (invalid, unknown model, model at capacity) is refused while a hold is on, and a held request
// still ends at the scenario's `requestTimeoutMs`, as every other wait of the emulator does.

const translate = (target: ReturnType<typeof createEmulator>, body: Record<string, unknown>) =>
  call(target, '/translations', { body });

describe('holdAnswers', () => {
  it('refuses at once a request over its model capacity (model_busy) and holds the accepted one', async () => {
    const emulator = createEmulator({ models: { 'my/desk-model': { capacity: 1 } } });
    const release = emulator.holdAnswers();
    const settled: string[] = [];
    // Sent together: whichever occupies the model first is held, the other is over capacity.
    const both = [0, 1].map((i) =>
      chat(emulator, userChat('my/desk-model', 'hi')).then((response) => {
        settled.push(`${i}:${response.status}`);
        return response;
      }),
    );
    const first = await Promise.race(both);
    expect(await errorBodyOf(first)).toMatchObject({ status: 429, code: 'model_busy' });
    expect(first.headers.get('retry-after')).toBe('1');
    expect(settled).toHaveLength(1);
    release();
    const statuses = (await Promise.all(both)).map((response) => response.status).sort();
    expect(statuses).toEqual([200, 429]);
    await untilIdle(emulator);
  });

  it('answers invalid or unknown requests at once while holding', async () => {
    const emulator = createEmulator();
    emulator.holdAnswers();
    const empty = await chat(emulator, { model: 'community/general', messages: [] });
    expect(await errorBodyOf(empty)).toMatchObject({ status: 400, code: 'invalid_request_error' });
    const unknown = await chat(emulator, userChat('nobody/none', 'hi'));
    expect(await errorBodyOf(unknown)).toMatchObject({ status: 404, code: 'model_not_found' });
    emulator.holdAnswers('translations');
    const tooShort = await translate(emulator, { input: '', target_language: 'uk' });
    expect(await errorBodyOf(tooShort)).toMatchObject({ status: 400, param: 'input' });
    await untilIdle(emulator);
  });

  it('holds a valid service request until released', async () => {
    const emulator = createEmulator();
    const release = emulator.holdAnswers('translations');
    let answered = false;
    const held = translate(emulator, { input: 'hello', target_language: 'uk' }).then((r) => {
      answered = true;
      return r;
    });
    await untilHeld(emulator, 1);
    expect(answered).toBe(false);
    release();
    expect(((await (await held).json()) as Json).text).toBe('[uk] hello');
  });

  it('ends a held request at requestTimeoutMs with 504 request_timeout, its slots given back', async () => {
    const emulator = createEmulator({
      requestTimeoutMs: 50,
      models: { 'my/desk-model': { capacity: 1 } },
    });
    emulator.holdAnswers();
    for (const stream of [false, true]) {
      const response = await chat(emulator, userChat('my/desk-model', 'hi', { stream }));
      expect(await errorBodyOf(response)).toMatchObject({ status: 504, code: 'request_timeout' });
      await untilIdle(emulator);
    }
    emulator.holdAnswers('translations');
    const translation = await translate(emulator, { input: 'hello', target_language: 'uk' });
    expect(await errorBodyOf(translation)).toMatchObject({ status: 504, code: 'request_timeout' });
    // The model is free again: `inflight` 0 in the list.
    const models = (await (await call(emulator, '/models')).json()) as Json;
    expect(models.data.find((m: Json) => m.id === 'my/desk-model').inflight).toBe(0);
  });
});

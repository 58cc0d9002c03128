import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { emulate, inflightOf, until, untilHeld, untilInflight } from '../src/testing/index';
import { chat, userChat } from './helpers';

// `untilHeld(n)` means "the emulator holds n requests": n requests wait at a hold, past every
// check that could refuse them, not merely n arrived (in flight, still in their latency or their
// checks). `untilInflight(n)` is the wait for "arrived".

/** Whether `wait` has resolved already (a wait checks its state at once, when it is made). */
async function resolvedNow(wait: Promise<void>): Promise<boolean> {
  const pending = Symbol('pending');
  wait.catch(() => undefined);
  return (await Promise.race([wait, Promise.resolve(pending)])) !== pending;
}

describe('untilHeld counts the requests waiting at a hold', () => {
  it('is pending while a request is in flight in its latency, before the hold', async () => {
    const emulator = createEmulator({ latencyMs: 60_000 });
    emulator.holdAnswers();
    const cut = new AbortController();
    const sent = chat(emulator, userChat('community/general', 'hi'), { signal: cut.signal });
    await untilInflight(emulator, 1);
    expect(await resolvedNow(untilHeld(emulator, 1, { timeoutMs: 1 }))).toBe(false);
    expect(emulator.counters.held).toEqual({});
    cut.abort();
    await sent.catch(() => undefined);
    await until(emulator, (counters) => inflightOf(counters) === 0);
  });

  it('does not count the requests a model at its capacity refuses', async () => {
    const emulator = createEmulator({ models: { 'my/desk-model': { capacity: 2 } } });
    const release = emulator.holdAnswers();
    const ask = () => chat(emulator, userChat('my/desk-model', 'hi'));
    let heldFour = false;
    const four = untilHeld(emulator, 4).then(() => {
      heldFour = true;
    });
    const calls = [ask(), ask(), ask(), ask()];
    // Two are held, two refused (model_busy) and their slots back.
    await untilHeld(emulator, 2);
    await until(emulator, (counters) => inflightOf(counters) === 2);
    expect(heldFour).toBe(false);
    // Room for two more: now four are held.
    const model = emulator.scenario.models['my/desk-model'];
    if (model) model.capacity = 4;
    const more = [ask(), ask()];
    await four;
    release();
    const statuses = (await Promise.all([...calls, ...more])).map((response) => response.status);
    expect(statuses.sort()).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('a held request was accepted: its model going offline after untilHeld does not refuse it', async () => {
    const gateway = await emulate();
    const release = gateway.hold();
    const sent = chat(gateway.emulator, userChat('community/general', 'hi'));
    await gateway.untilHeld(1);
    expect(gateway.counters.held).toEqual({ [gateway.apiKey]: 1 });
    const model = gateway.emulator.scenario.models['community/general'];
    if (model) model.online = false;
    release();
    expect((await sent).status).toBe(200);
    await gateway.untilIdle();
    expect(gateway.counters.held).toEqual({ [gateway.apiKey]: 0 });
  });
});

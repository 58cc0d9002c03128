// docs/gateway-protocol.md §4.7 (fx-steer13 F1): an answer closes a model's breaker for every client
// on the key, so every client told it opened (`circuit-open`) is told it closed (`circuit-close`),
// at its next call that plans the model: a strict client's breaker closed by a lenient client's
// answer too. No cooldown runs out here: nothing waits on the clock.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { hi, only, recordingClient } from './helpers';

const GENERAL = 'community/general';
const TOOLS = 'community/tools';
const list = { fallbackModels: [TOOLS] };

/** Two strict clients (open at 1 failure) and a lenient one (at 3) on one gateway and key. */
async function strictAndLenient() {
  const gateway = await emulate();
  const on = (failures: number) =>
    recordingClient(gateway, {
      circuitBreaker: { failures, cooldownMs: 60_000 },
      maxRetries: 0,
    });
  const strict = on(1);
  const lenient = on(3);
  const strictToo = on(1);
  // One failure of general: open for the strict client, not for the lenient one.
  gateway.emulator.injectFault({ fault: 'bad_gateway', model: GENERAL, times: 1 });
  expect((await strict.client.chat(hi(), list)).servedModel).toBe(TOOLS);
  expect(only(strict.events, 'circuit-open')).toMatchObject([{ model: GENERAL }]);
  return { emulator: gateway.emulator, strict, lenient, strictToo };
}

describe("a lenient client's answer closes a strict client's breaker (fx-steer13 F1)", () => {
  it('tells the strict client, once, at its next call that plans the model', async () => {
    const { strict, lenient } = await strictAndLenient();
    // The lenient client still sends to general: its answer ends the streak for everyone.
    const answered = await lenient.client.chat(hi(), list);
    expect(answered.route.hops).toEqual([{ model: GENERAL, outcome: 'answered' }]);
    // The lenient client was never told it opened: nothing to close.
    expect(only(lenient.events, 'circuit-open')).toEqual([]);
    expect(only(lenient.events, 'circuit-close')).toEqual([]);
    expect(only(strict.events, 'circuit-close')).toEqual([]);
    // (Told as the call plans the model: before the call resolves.)
    const { route } = await strict.client.chat(hi(), list);
    expect(route.hops).toEqual([{ model: GENERAL, outcome: 'answered' }]);
    const close = only(strict.events, 'circuit-close');
    expect(close).toMatchObject([{ model: GENERAL }]);
    // On the call that planned the model, not the one that was told it opened.
    const open = only(strict.events, 'circuit-open')[0];
    expect(close[0]?.callId).not.toBe(open?.callId);
    // Told once: the next call has nothing more to say.
    await strict.client.chat(hi(), list);
    expect(only(strict.events, 'circuit-close')).toHaveLength(1);
  });

  it('tells it nothing while the model has opened again since (no close for its open yet)', async () => {
    const { strict, lenient, emulator } = await strictAndLenient();
    await lenient.client.chat(hi(), list);
    // Three failures more: open again, for the lenient client too.
    emulator.injectFault({ fault: 'bad_gateway', model: GENERAL, times: 3 });
    for (let i = 0; i < 3; i++) {
      expect((await lenient.client.chat(hi(), list)).servedModel).toBe(TOOLS);
    }
    expect(only(lenient.events, 'circuit-open')).toMatchObject([{ model: GENERAL }]);
    // Open for the strict client all along, as far as it saw: no close, planned around.
    const next = await strict.client.chat(hi(), list);
    expect(only(strict.events, 'circuit-close')).toEqual([]);
    expect(next.route.hops).toEqual([
      { model: GENERAL, outcome: 'skipped', reason: 'circuit_open' },
      { model: TOOLS, outcome: 'answered' },
    ]);
    // (Its close comes when the model closes: its probe's answer after the cooldown, or another's.)
    expect(only(strict.events, 'circuit-open')).toHaveLength(1);
  });

  it("a client that finds the model open by another client's failure is told it opened, then closed", async () => {
    const { strict, lenient, strictToo } = await strictAndLenient();
    // Its threshold was reached by the first strict client's failure, not by one it recorded.
    const { route } = await strictToo.client.chat(hi(), list);
    expect(route.hops[0]).toEqual({ model: GENERAL, outcome: 'skipped', reason: 'circuit_open' });
    expect(only(strictToo.events, 'circuit-open')).toMatchObject([{ model: GENERAL }]);
    // Told once: planning around it again says nothing more.
    await strictToo.client.chat(hi(), list);
    expect(only(strictToo.events, 'circuit-open')).toHaveLength(1);
    // The lenient client's answer closes it: one close for the one open, and none to the lenient.
    await lenient.client.chat(hi(), list);
    expect((await strictToo.client.chat(hi(), list)).servedModel).toBe(GENERAL);
    expect(only(strictToo.events, 'circuit-close')).toMatchObject([{ model: GENERAL }]);
    expect(only(lenient.events, 'circuit-close')).toEqual([]);
    expect(only(strict.events, 'circuit-open')).toHaveLength(1);
  });
});

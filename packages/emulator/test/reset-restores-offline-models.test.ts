// The kit's `reset()` (and `hooks.afterEach`) promises that injected faults are reset: a model an
// injected or header `model_offline` took offline used to stay offline into the next test.
// `emulator.clearFaults()` now puts it back online; a scenario rule's stays, as scenario state.
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { emulate } from '../src/testing/index';
import { chat, userChat } from './helpers';

const desk = userChat('my/desk-model', 'hi');

describe('clearFaults() undoes what run-time faults changed', () => {
  it("the kit's reset() brings back a model an injected model_offline took offline", async () => {
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'model_offline', model: 'my/desk-model' });
    expect((await chat(gateway.emulator, desk)).status).toBe(503);
    gateway.reset();
    expect(gateway.emulator.scenario.models['my/desk-model']!.online).toBe(true);
    expect((await chat(gateway.emulator, desk)).status).toBe(200);
    await gateway.close();
  });

  it("hooks.afterEach's reset does the same, so the next test finds the model online", async () => {
    let afterEach: (() => void) | undefined;
    const gateway = await emulate({
      hooks: {
        afterEach: (fn) => {
          afterEach = fn;
        },
      },
    });
    gateway.emulator.injectFault({ fault: 'model_offline', model: 'community/plain' });
    expect((await chat(gateway.emulator, userChat('community/plain', 'hi'))).status).toBe(503);
    afterEach?.();
    expect((await chat(gateway.emulator, userChat('community/plain', 'hi'))).status).toBe(200);
    await gateway.close();
  });

  it('a model an X-Emulator-Fault header took offline is back online after clearFaults()', async () => {
    const emulator = createEmulator();
    const headers = { 'x-emulator-fault': 'model_offline' };
    expect((await chat(emulator, desk, { headers })).status).toBe(503);
    emulator.clearFaults();
    expect((await chat(emulator, desk)).status).toBe(200);
  });

  it("a scenario rule's model_offline stays (scenario state), and a model offline by the scenario stays offline", async () => {
    const emulator = createEmulator({
      faults: [{ fault: 'model_offline', model: 'my/desk-model' }],
    });
    expect((await chat(emulator, desk)).status).toBe(503);
    emulator.injectFault({ fault: 'model_offline', model: 'my/laptop-model' });
    emulator.clearFaults();
    expect(emulator.scenario.models['my/desk-model']!.online).toBe(false);
    expect(emulator.scenario.models['my/laptop-model']!.online).toBe(false);
  });
});

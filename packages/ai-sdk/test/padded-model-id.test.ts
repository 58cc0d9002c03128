// A model id padded with whitespace, through generateText against the emulator: core refuses it
// before anything is sent (`gateway(' id ')`, a padded `fallbackModels` id as a model setting or
// a call's provider option), naming the field, as every path of core does.
import { caught } from '@infergate/emulator/testing';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway } = await providersOnMsw();
const WHITESPACE = 'has leading or trailing whitespace';

describe('a padded model id through generateText', () => {
  it.each([' community/general', 'my/desk-model '])(
    'gateway(%j) is refused before the catalog or a chat request',
    async (id) => {
      const error = await caught(
        generateText({ model: gateway()(id), prompt: 'hi', maxRetries: 0 }),
        (e): e is Error => e instanceof Error,
      );
      expect(error.message).toContain(`model: ${WHITESPACE}`);
      expect(emulator.counters.requests.chat ?? 0).toBe(0);
      expect(emulator.counters.requests.models ?? 0).toBe(0);
    },
  );

  it("a padded fallback id (the call's own model, padded) is refused, naming its index", async () => {
    emulator.injectFault({ fault: 'service_unavailable', model: 'my/desk-model' });
    const setting = await caught(
      async () =>
        generateText({
          model: gateway()('my/desk-model', { fallbackModels: ['my/desk-model '] }),
          prompt: 'hi',
        }),
      (e): e is Error => e instanceof Error,
    );
    expect(setting.message).toContain(`fallbackModels[0] (model setting) ${WHITESPACE}`);
    const option = await caught(
      generateText({
        model: gateway()('my/desk-model'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: { fallbackModels: ['my/desk-model '] } },
      }),
      (e): e is Error => e instanceof Error,
    );
    expect(option.message).toContain(`fallbackModels[0] (call option) ${WHITESPACE}`);
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
  });
});

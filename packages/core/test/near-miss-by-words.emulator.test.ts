import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type ChatCallOptions, createGatewayClient, isGatewayError } from '../src/index';
import { hi } from './helpers';

// A near miss by its words, not only its letters (call/option-groups.ts `sameWords`): an ending
// (`maxRetry`, `hedging`), a word more (`hedgeAfterMs`) or the option's first word alone
// (`fallbacks`) names the option meant, where an edit distance finds none — before any request.

describe('chat(request, { … }): a near miss by its words names the option meant', () => {
  it.each([
    ['maxRetry', 1, 'maxRetries'],
    ['hedging', { afterMs: 100 }, 'hedge'],
    ['hedgeAfterMs', 100, 'hedge'],
    ['fallbacks', ['community/plain'], 'fallbackModels'],
    ['fallback', 'community/plain', 'fallbackModels'],
  ])('%s → %s', async (key, value, meant) => {
    const gateway = await emulate();
    const client = createGatewayClient(gateway.connection);
    const error = await caught(
      () => client.chat(hi(), { [key]: value } as ChatCallOptions),
      isGatewayError,
    );
    expect(error).toMatchObject({ code: 'invalid_request_error', field: key });
    expect(error.message).toBe(
      `unknown option \`${key}\` in chat options — did you mean \`${meant}\`?`,
    );
    expect(gateway.emulator.counters.requests.chat).toBe(0);
    await gateway.close();
  });
});

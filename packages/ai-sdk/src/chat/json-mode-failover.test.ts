// docs/gateway-protocol.md §4.5, §4.7 rule 3: `Output.json()` (response_format json_object, no
// schema) with `fallbackModels`: a model whose answer is not JSON fails its hop in core and the
// next model answers; the last model's answer is `ai`'s to parse, as without a list.
import { emulate, withJsonModeModels } from '@infergate/emulator/testing';
import { generateText, NoObjectGeneratedError, Output } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateway } from '../provider/gateway-provider';

// `x/cut` answers every JSON request cut short (not JSON); `x/json` keeps its word.
const emulated = await emulate({ scenario: withJsonModeModels() });
afterAll(() => emulated.close());
const prompt = 'Where is "Oslo"? JSON please';

describe('Output.json() with fallbackModels', () => {
  it('an answer that is not JSON moves on to the next model', async () => {
    const gateway = createGateway({ ...emulated.connection, circuitBreaker: false });
    const result = await generateText({
      model: gateway('x/cut', { fallbackModels: ['x/json'] }),
      output: Output.json(),
      prompt,
      maxRetries: 0,
    });
    expect(result.output).toEqual({ answer: `Echo: ${prompt}` });
    expect(emulated.counters.requests.chat).toBe(2);
    expect(result.providerMetadata?.infergate?.route).toMatchObject({
      hops: [
        { model: 'x/cut', outcome: 'failed', reason: 'invalid_structured_output' },
        { model: 'x/json', outcome: 'answered' },
      ],
    });
  });

  it("the last model's answer is ai's to parse: NoObjectGeneratedError", async () => {
    emulated.reset();
    const gateway = createGateway({ ...emulated.connection, circuitBreaker: false });
    const failure = await generateText({
      model: gateway('x/json', { fallbackModels: ['x/cut'] }),
      output: Output.json(),
      prompt: `${prompt} [[invalid_json]]`,
      maxRetries: 0,
    }).catch((error: unknown) => error);
    expect(NoObjectGeneratedError.isInstance(failure)).toBe(true);
    expect(emulated.counters.requests.chat).toBe(2);
  });
});

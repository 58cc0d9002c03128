// docs/gateway-protocol.md §4.3: on a stream, an `n` that is not a number is refused as 2 is
// (core's `asksSeveralChoices`): a lax server (pydantic's lax mode: vLLM, LiteLLM) reads `"2"` as
// 2, and the other choice would be billed, then dropped. No `n`, `null` and a number up to 1 (0: a
// server refuses it itself, nothing generated) are sent as given.
import { InvalidArgumentError } from '@ai-sdk/provider';
import { emulate } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { bodies, gateway } = recordingGatewayOn(emulated);

/** streamText asking `n`, read to its end: its error parts. */
async function streamedAsking(n: unknown) {
  const result = streamText({
    model: gateway()('community/general'),
    prompt: 'hi',
    maxRetries: 0,
    providerOptions: { infergate: { n } as never },
    // (The error is read from the stream's parts; ai would also log it.)
    onError: () => {},
  });
  const errors: unknown[] = [];
  for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
  return errors;
}

describe('n on streamText', () => {
  it.each([
    ['"2"', '2', 'a string'],
    ['true', true, 'a boolean'],
    ['2.5', 2.5, '2.5'],
  ])(
    '%s: refused as 2 is, naming providerOptions.infergate.n, nothing sent',
    async (_, n, shown) => {
      const errors = await streamedAsking(n);
      expect(errors).toHaveLength(1);
      const error = errors[0] as InvalidArgumentError;
      expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
      expect(error.argument).toBe('providerOptions.infergate.n');
      expect(error.message).toBe(
        `providerOptions.infergate.n is ${shown}, not 1: a stream carries one choice, any other would be billed and dropped; leave n out or set it to 1`,
      );
      expect(bodies).toEqual([]);
    },
  );

  it.each([
    ['null', null],
    ['0', 0],
    ['1', 1],
  ])('%s: sent as given', async (_, n) => {
    expect(await streamedAsking(n)).toEqual([]);
    expect(bodies).toMatchObject([{ n, stream: true }]);
  });
});

// docs/gateway-protocol.md §4.3: a stream's parts carry no choice, so `n` > 1 on streamText would
// have the other choices generated and billed, then dropped unseen. Refused before anything is
// sent (`InvalidArgumentError` naming `providerOptions.infergate.n`); `n: 1` streams.
import { InvalidArgumentError } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { streamText as streamTextV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway, gatewayV3 } = await providersOnMsw({});
const sent = () => Object.values(emulator.counters.requests).reduce((a, b) => a + b, 0);

/** The errors of a stream read to its end. */
async function streamErrors(stream: {
  fullStream: AsyncIterable<{ type: string; error?: unknown }>;
}) {
  const errors: unknown[] = [];
  for await (const part of stream.fullStream) {
    if (part.type === 'error') errors.push(part.error);
  }
  return errors;
}

describe('n > 1 on a stream', () => {
  it.each([
    ['ai@7', () => streamText({ model: gateway()('community/general'), ...asked(2) })],
    ['ai@6', () => streamTextV6({ model: gatewayV3()('community/general'), ...asked(3) })],
  ])('%s: refused naming providerOptions.infergate.n, nothing sent', async (_, run) => {
    const errors = await streamErrors(run());
    expect(errors).toHaveLength(1);
    const error = errors[0] as InvalidArgumentError;
    expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
    expect(error.argument).toBe('providerOptions.infergate.n');
    expect(error.message).toMatch(
      /^providerOptions\.infergate\.n is [23], not 1: a stream carries one choice/,
    );
    expect(sent()).toBe(0);
  });

  it('n: 1 streams', async () => {
    const result = streamText({ model: gateway()('community/general'), ...asked(1) });
    expect(await streamErrors(result)).toEqual([]);
    expect((await result.text).length).toBeGreaterThan(0);
  });
});

function asked(n: number) {
  // (The error is read from the stream's parts; ai would also log it.)
  return { prompt: 'hi', maxRetries: 0, providerOptions: { infergate: { n } }, onError: () => {} };
}

// A refused key of a chat call's `providerOptions.infergate` is named by its whole path in
// `argument` (`providerOptions.infergate.timeoutMs`, `providerOptions.infergate.hedge.delayMs`), as
// embedMany's and transcribe's are and as the README says: `argument: 'headers'` is then only ever
// the call's own `headers`, never the same key given in `providerOptions.infergate`.
import { InvalidArgumentError } from '@ai-sdk/provider';
import { caught, emulate } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../src';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const KEY = emulated.apiKey;
const provider = createGateway(emulated.connection);
const chats = () => emulated.emulator.counters.requests.chat ?? 0;

const REFUSED: [string, Record<string, unknown>, string][] = [
  ['a provider setting', { headers: { 'x-a': 'b' } }, 'headers'],
  ['a provider setting', { timeoutMs: 5 }, 'timeoutMs'],
  ['a near miss', { firstChunkTimeoutMS: 5 }, 'firstChunkTimeoutMS'],
  ['a bad steering value', { firstChunkTimeoutMs: -1 }, 'firstChunkTimeoutMs'],
  ['a bad steering value', { fallbackModels: [''] }, 'fallbackModels[0]'],
  // (`hedge: null` is not given: null-provider-options.test.ts.)
  ['a bad steering value', { hedge: 'fast' }, 'hedge'],
  ['a bad value in a group', { hedge: { afterMs: -1 } }, 'hedge.afterMs'],
  ['an unknown key in a group', { hedge: { delayMs: 5 } }, 'hedge.delayMs'],
  [
    'an unknown key in a group',
    { structuredOutput: { method: ['tools'] } },
    'structuredOutput.method',
  ],
  ['a key named as its group', { hedge: { hedge: 1 } }, 'hedge.hedge'],
  ['the API key as a group key', { hedge: { [KEY]: 1 } }, 'hedge.[redacted]'],
];

describe("a chat call's refused providerOptions.infergate key: argument is its whole path", () => {
  it.each(REFUSED)('generateText, %s %o: %s', async (_, infergate, path) => {
    const before = chats();
    const error = await caught(() =>
      generateText({
        model: provider('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: infergate as never },
      }),
    );
    expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe(`providerOptions.infergate.${path}`);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(chats()).toBe(before);
  });

  it.each([
    [{ timeoutMs: 5 }, 'timeoutMs'],
    [{ hedge: { delayMs: 5 } }, 'hedge.delayMs'],
  ])('streamText %o: %s', async (infergate, path) => {
    const before = chats();
    let error: unknown;
    const result = streamText({
      model: provider('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate: infergate as never },
      onError: (event) => {
        error = event.error;
      },
    });
    await result.consumeStream();
    expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe(`providerOptions.infergate.${path}`);
    expect(chats()).toBe(before);
  });

  it("the call's own headers: argument is headers, told apart from providerOptions.infergate.headers", async () => {
    const error = await caught(() =>
      generateText({
        model: provider('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        headers: { Authorization: 'Bearer x' },
      }),
    );
    expect((error as InvalidArgumentError).argument).toBe('headers');
  });
});

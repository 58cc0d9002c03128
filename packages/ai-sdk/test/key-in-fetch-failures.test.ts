/**
 * A custom fetch whose failure carries the request's headers (in a `Headers`, a `Request`, a `Map`)
 * or quotes its `Authorization` line: the key shows neither in the APICallError's inspected form
 * nor, cut, as its start in a steered call's "Every model tried failed" message (streamText's
 * onError).
 */
import { inspect } from 'node:util';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { generateText, streamText } from 'ai';
import { expect, it } from 'vitest';
import { createGateway } from '../src';

const KEY = DEFAULT_KEYS.full;
/** Any 8 characters of the key's start, the shortest a cut may leave (`ig-emu-f`). */
const KEY_START = KEY.slice(0, 8);
const BASE = 'https://gw.test/v1';

/** The emulator, but a chat request fails with what `fail` makes of the request. */
function failingChats(fail: (url: string, init: RequestInit) => unknown): typeof fetch {
  const emulator = createEmulator();
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith('/chat/completions')) throw fail(url, init ?? {});
    return emulator.fetch(input, init);
  };
}

const holders: Record<string, (url: string, init: RequestInit) => unknown> = {
  'options.headers = new Headers(…)': (_url, init) =>
    Object.assign(new TypeError('fetch failed'), {
      options: { ...init, headers: new Headers(init.headers) },
    }),
  'request = new Request(…)': (url, init) =>
    Object.assign(new TypeError('fetch failed'), { request: new Request(url, init) }),
  'cause = new Headers(…)': (_url, init) =>
    new TypeError('fetch failed', { cause: new Headers(init.headers) }),
  'meta = new Map(…)': (_url, init) =>
    Object.assign(new TypeError('fetch failed'), {
      meta: new Map(new Headers(init.headers).entries()),
    }),
};

it.each(Object.entries(holders))(
  "a fetch failure holding the request's headers as %s: generateText's error does not show the key",
  async (_name, fail) => {
    const gateway = createGateway({ baseURL: BASE, apiKey: KEY, fetch: failingChats(fail) });
    const error = await generateText({
      model: gateway('community/general'),
      prompt: 'x',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(inspect(error, { depth: 20 })).not.toContain(KEY);
    expect(inspect(error, { depth: 20, showHidden: true })).not.toContain(KEY);
  },
);

it("a steered call's all-failed message does not keep the start of a key its cut split", async () => {
  const opening = `Could not reach the gateway at ${BASE}: fetch failed: `;
  // The quoted sample is cut at 200 characters: 10 of the key's fall before the cut.
  const pad = 'z'.repeat(200 - opening.length - ' Bearer '.length - 10);
  const fetch = failingChats((_url, init) => {
    const authorization = new Headers(init.headers).get('authorization');
    return new TypeError(`fetch failed: ${pad} ${authorization}`);
  });
  const gateway = createGateway({ baseURL: BASE, apiKey: KEY, fetch });
  let failure: unknown;
  const result = streamText({
    model: gateway('community/general', { fallbackModels: ['community/streamer'] }),
    prompt: 'x',
    maxRetries: 0,
    onError: ({ error }) => {
      failure = error;
    },
  });
  await result.consumeStream();
  const message = (failure as Error).message;
  expect(message).toContain('Every model tried failed');
  expect(message).toContain('Bearer [redacted]…');
  expect(message).not.toContain(KEY_START);
  expect(inspect(failure, { depth: 20 })).not.toContain(KEY_START);
});

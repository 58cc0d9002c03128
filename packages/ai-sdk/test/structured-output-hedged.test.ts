// A hedged structured call through ai with `Output.object` over so-native (answers to the schema)
// and so-off (answers off it) recovers as the unhedged one does (docs/gateway-protocol.md §4.8):
// - generateText: the provider hands the call's last answer to ai unchecked (core's `lastAnswer:
//   'returned'`), and a hedge's off-schema answer is not the last while the first model may still
//   answer.
// - streamText over [so-off, so-native] (rv-2hedge F2): the hedge takes the spare so-native;
//   so-off's first content cuts it, and so-off's answer then fails its check. Core's winning run
//   takes over the spare its hedge had taken, so so-native is asked next and ai gets its valid
//   answer (before, the call ended with no object).

import { emulate } from '@infergate/emulator/testing';
import { generateText, Output, streamText } from 'ai';
import { afterAll, afterEach, expect, it } from 'vitest';
import { z } from 'zod/v4';
import type { GatewayProviderMetadata, GatewayProviderSettings } from '../src';
import { gatewayThrough } from './providers';

const listed = { owned_by: 'service-community', online: true } as const;
const emulated = await emulate({
  hooks: { afterEach, afterAll },
  scenario: {
    models: {
      'community/so-native': { ...listed, capabilities: ['chat', 'streaming', 'json_schema'] },
      'community/so-off': {
        ...listed,
        capabilities: ['chat', 'streaming', 'json_schema'],
        jsonAnswers: { offSchemaShare: 1 },
      },
    },
  },
});

const Place = z.object({
  city: z.string(),
  kind: z.enum(['town', 'village']),
  where: z.object({ country: z.string(), rank: z.number().int() }),
});

/**
 * The provider on the emulated gateway whose chat requests (the call's `n`th) go through
 * `chatRequest`, which sends them on with `send`; then `settings`.
 */
function gatewayWithChats(
  chatRequest: (n: number, send: () => Promise<Response>, init?: RequestInit) => Promise<Response>,
  settings: GatewayProviderSettings = {},
) {
  let chats = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const send = () => emulated.fetch(input, init);
    return url.endsWith('/chat/completions') ? chatRequest(++chats, send, init) : send();
  };
  const gateway = gatewayThrough(emulated, fetch, settings);
  return { gateway, chats: () => chats };
}

/** The route of an answer's provider metadata, each hop as `model:outcome`. */
const hopsOf = (metadata: unknown) =>
  (metadata as { infergate: GatewayProviderMetadata }).infergate.route.hops.map(
    (hop) => `${hop.model}:${hop.outcome}`,
  );

it('generateText: a hedge answering off-schema waits for the first model, whose valid answer ai gets', async () => {
  // The first chat request is held until the hedge's attempt (the call's second) gave its slot back.
  let letGo: () => void = () => {};
  const late = new Promise<void>((resolve) => (letGo = resolve));
  const { gateway } = gatewayWithChats(
    async (n, send) => {
      if (n === 1) await late;
      return send();
    },
    {
      onEvent: (event) => {
        if (event.type === 'released' && event.attempt === 2) letGo();
      },
    },
  );
  const answered = generateText({
    model: gateway('community/so-native'),
    prompt: 'Where is "Oslo"?',
    output: Output.object({ schema: Place }),
    providerOptions: {
      infergate: { fallbackModels: ['community/so-off'], hedge: { afterMs: 1, maxExtra: 1 } },
    },
  });
  answered.finally(letGo).catch(() => {});
  const result = await answered;
  expect(result.output).toMatchObject({ city: expect.any(String) });
  expect(hopsOf(result.providerMetadata)).toEqual([
    'community/so-off:failed',
    'community/so-native:answered',
  ]);
});

it('streamText + Output.object: the hedge cut by so-off’s content is asked after so-off’s answer fails its check', async () => {
  // so-off's request waits until the hedge's has reached the gateway; the hedge's request answers
  // nothing until it is cut: so-off's content decides the race, in that order, on any machine.
  let hedgeSent: () => void = () => {};
  const hedgeArrived = new Promise<void>((resolve) => (hedgeSent = resolve));
  const { gateway, chats } = gatewayWithChats(
    async (n, send, init) => {
      if (n === 1) await hedgeArrived;
      if (n === 2) {
        hedgeSent();
        const signal = init!.signal!;
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        throw signal.reason;
      }
      return send();
    },
    { hedge: { afterMs: 1, maxExtra: 1 } },
  );
  const result = streamText({
    model: gateway('community/so-off', { fallbackModels: ['community/so-native'] }),
    prompt: 'Where is "Oslo"?',
    output: Output.object({ schema: Place }),
  });
  expect(await result.output).toMatchObject({ city: expect.any(String) });
  expect(hopsOf(await result.providerMetadata)).toEqual([
    'community/so-native:lost',
    'community/so-off:failed',
    'community/so-native:answered',
  ]);
  expect(chats()).toBe(3);
});

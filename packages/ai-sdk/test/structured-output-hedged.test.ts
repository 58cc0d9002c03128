// A hedged structured call through ai's generateText with `Output.object`: the provider hands the
// call's last answer to ai unchecked (core's `lastAnswer: 'returned'`), and a hedge's off-schema
// answer is not the last while the first model may still answer (docs/gateway-protocol.md §4.8).

import { DEFAULT_KEYS } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import { generateText, Output } from 'ai';
import { afterAll, afterEach, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createGateway, type GatewayProviderMetadata } from '../src';

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

it('generateText: a hedge answering off-schema waits for the first model, whose valid answer ai gets', async () => {
  // The first chat request is held until the hedge's attempt (the call's second) gave its slot back.
  let letGo: () => void = () => {};
  const late = new Promise<void>((resolve) => (letGo = resolve));
  let chats = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/chat/completions') && ++chats === 1) await late;
    return emulated.fetch(input, init);
  };
  const gateway = createGateway({
    baseURL: emulated.baseURL,
    apiKey: DEFAULT_KEYS.full,
    fetch,
    circuitBreaker: false,
    onEvent: (event) => {
      if (event.type === 'released' && event.attempt === 2) letGo();
    },
  });
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
  const { hops } = (result.providerMetadata as unknown as { infergate: GatewayProviderMetadata })
    .infergate.route;
  expect(hops.map((hop) => `${hop.model}:${hop.outcome}`)).toEqual([
    'community/so-off:failed',
    'community/so-native:answered',
  ]);
});

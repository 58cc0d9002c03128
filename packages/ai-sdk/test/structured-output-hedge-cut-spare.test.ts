// A hedged structured stream through ai's streamText with `Output.object` recovers as the unhedged
// one does (rv-2hedge F2): over fallbackModels [so-off, so-native] the hedge takes the spare
// so-native; so-off's first content cuts it, and so-off's answer then fails its check. Core's
// winning run takes over the spare its hedge had taken, so so-native is asked next and ai gets its
// valid answer (before, the call ended with no object).

import { DEFAULT_KEYS } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import { Output, streamText } from 'ai';
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

const Place = z.object({ city: z.string(), kind: z.enum(['town', 'village']) });

it('streamText + Output.object: the hedge cut by so-off’s content is asked after so-off’s answer fails its check', async () => {
  // so-off's request waits until the hedge's has reached the gateway; the hedge's request answers
  // nothing until it is cut: so-off's content decides the race, in that order, on any machine.
  let hedgeSent: () => void = () => {};
  const hedgeArrived = new Promise<void>((resolve) => (hedgeSent = resolve));
  let chats = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.endsWith('/chat/completions')) return emulated.fetch(input, init);
    const chat = ++chats;
    if (chat === 1) await hedgeArrived;
    if (chat === 2) {
      hedgeSent();
      const signal = init!.signal!;
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      throw signal.reason;
    }
    return emulated.fetch(input, init);
  };
  const gateway = createGateway({
    baseURL: emulated.baseURL,
    apiKey: DEFAULT_KEYS.full,
    fetch,
    circuitBreaker: false,
    hedge: { afterMs: 1, maxExtra: 1 },
  });
  const result = streamText({
    model: gateway('community/so-off', { fallbackModels: ['community/so-native'] }),
    prompt: 'Where is "Oslo"?',
    output: Output.object({ schema: Place }),
  });
  expect(await result.output).toMatchObject({ city: expect.any(String) });
  const metadata = (await result.providerMetadata) as unknown as {
    infergate: GatewayProviderMetadata;
  };
  expect(metadata.infergate.route.hops.map((hop) => `${hop.model}:${hop.outcome}`)).toEqual([
    'community/so-native:lost',
    'community/so-off:failed',
    'community/so-native:answered',
  ]);
  expect(chats).toBe(3);
});

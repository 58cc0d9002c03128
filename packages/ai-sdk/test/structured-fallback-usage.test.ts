// docs/gateway-protocol.md §4.3 (`usage`), §4.8 item 5: a structured call whose first model's
// answer failed the schema and whose fallback answered paid for both answers. Through ai's
// generateText and streamText with `Output.object`, against the emulator: `usage` counts every
// hop's tokens (core's `callUsage`, as LangChain's `usage_metadata` counts them), and the answering
// model's own stays in `providerMetadata.infergate.usage`.
import type { Usage } from '@infergate/core';
import {
  CLAIMED_MODEL,
  emulate,
  withClaimedModel,
  withOffSchemaModel,
} from '@infergate/emulator/testing';
import { generateText, Output, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createGateway, type GatewayProviderMetadata } from '../src';

/** A second model whose every JSON answer breaks the schema. */
const BAD = 'x/bad';
const emulated = await emulate({
  scenario: withOffSchemaModel(withClaimedModel(), BAD),
  hooks: { afterEach, afterAll },
});
const Place = z.object({ city: z.string() });
const QUESTION = 'Where is "Oslo"?';

/** `community/claimed` (answers off the schema) falling back to `community/general`. */
function claimedFirst() {
  // A new provider each test: its per-key state (the breakers) starts clean.
  const gateway = createGateway({ ...emulated.connection, fetch: emulated.fetch });
  return gateway(CLAIMED_MODEL, { fallbackModels: ['community/general'] });
}

/** The counts of the refused hop and of the answer (its own), and their sums. */
function spentByBoth(metadata: GatewayProviderMetadata | undefined) {
  const refused = (metadata?.route.hops[0] as { usage?: Usage } | undefined)?.usage;
  const answered = metadata?.usage;
  expect(metadata?.route.hops.map(({ outcome }) => outcome)).toEqual(['failed', 'answered']);
  expect(refused?.total_tokens).toBeGreaterThan(0);
  expect(answered?.total_tokens).toBeGreaterThan(0);
  return {
    own: answered!,
    inputTokens: refused!.prompt_tokens + answered!.prompt_tokens,
    outputTokens: refused!.completion_tokens + answered!.completion_tokens,
    totalTokens: refused!.total_tokens + answered!.total_tokens,
  };
}

describe('usage of a structured call answered by its fallback', () => {
  it("generateText: usage counts the refused answer's tokens too", async () => {
    const result = await generateText({
      model: claimedFirst(),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
    });
    expect(result.output).toEqual({ city: 'Oslo' });
    const metadata = result.providerMetadata?.infergate as unknown as GatewayProviderMetadata;
    const { own, ...both } = spentByBoth(metadata);
    expect(result.usage).toMatchObject(both);
    expect(result.totalUsage).toMatchObject(both);
    // The answering model's own usage, as the gateway sent it.
    expect(own.prompt_tokens).toBeLessThan(both.inputTokens);
  });

  it("streamText: the finish's usage counts the refused answer's tokens too", async () => {
    const result = streamText({
      model: claimedFirst(),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
    });
    await result.consumeStream();
    expect(await result.output).toEqual({ city: 'Oslo' });
    const metadata = (await result.providerMetadata)?.infergate as unknown as
      | GatewayProviderMetadata
      | undefined;
    const { own, ...both } = spentByBoth(metadata);
    expect(await result.usage).toMatchObject(both);
    expect(await result.totalUsage).toMatchObject(both);
    expect(own.completion_tokens).toBeLessThan(both.outputTokens);
  });

  it('a call of one model: usage is its answer’s, as before', async () => {
    const gateway = createGateway({ ...emulated.connection, fetch: emulated.fetch });
    const result = await generateText({
      model: gateway('community/general'),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
    });
    const own = (result.providerMetadata?.infergate as GatewayProviderMetadata | undefined)?.usage;
    expect(result.usage).toMatchObject({
      inputTokens: own?.prompt_tokens,
      outputTokens: own?.completion_tokens,
      totalTokens: own?.total_tokens,
    });
  });

  it("streamText, the last answer refused too (handed to ai): each answer's tokens once", async () => {
    const gateway = createGateway({ ...emulated.connection, fetch: emulated.fetch });
    const finishes: { totalTokens: number | undefined; metadata: unknown }[] = [];
    const result = streamText({
      model: gateway(CLAIMED_MODEL, { fallbackModels: [BAD] }),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
      onError: () => {},
      onFinish: ({ usage, providerMetadata }) =>
        void finishes.push({
          totalTokens: usage.totalTokens,
          metadata: providerMetadata?.infergate,
        }),
    });
    await result.consumeStream();
    const metadata = finishes[0]?.metadata as GatewayProviderMetadata | undefined;
    const refused = (metadata?.route.hops[0] as { usage?: Usage } | undefined)?.usage;
    expect(metadata?.servedModel).toBe(BAD);
    expect(finishes[0]?.totalTokens).toBe(refused!.total_tokens + metadata!.usage!.total_tokens);
  });
});

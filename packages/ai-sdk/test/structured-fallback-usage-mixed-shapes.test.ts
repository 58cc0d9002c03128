// docs/gateway-protocol.md §4.3 (`usage`: its counts as the model server reports them), §4.8 item
// 5: a structured call answered by its fallback spent both answers' tokens, whatever shape each
// model server reports them in. Through generateText / streamText with `Output.object`, against
// the emulator: `usage` is core's sum (`callUsage`). ai makes `totalTokens` itself, as input +
// output (V4 usage has no total of its own), so a hop without `total_tokens` counts fully, and a
// hop reporting a total alone adds no input or output (its total stays on its hop of the route).
import type { Usage } from '@infergate/core';
import {
  CLAIMED_MODEL,
  emulate,
  partsOnly,
  totalOnly,
  type UsageShape,
  usageReshapedFetch,
  withClaimedModel,
} from '@infergate/emulator/testing';
import { generateText, Output, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createGateway, type GatewayProviderMetadata } from '../src';

const emulated = await emulate({ scenario: withClaimedModel(), hooks: { afterEach, afterAll } });
const Place = z.object({ city: z.string() });
const QUESTION = 'Where is "Oslo"?';

/** `CLAIMED_MODEL` falling back to `community/general`, answers of `shapes`' models reshaped. */
function claimedFirst(shapes: Record<string, UsageShape>) {
  // A new provider each test: its per-key state (the breakers) starts clean.
  const gateway = createGateway({
    ...emulated.connection,
    fetch: usageReshapedFetch(emulated.fetch, shapes),
  });
  return gateway(CLAIMED_MODEL, { fallbackModels: ['community/general'] });
}

/** The refused hop's usage and the answer's own. */
function usages(metadata: unknown) {
  const { route, usage } = metadata as GatewayProviderMetadata;
  expect(route.hops.map(({ outcome }) => outcome)).toEqual(['failed', 'answered']);
  return { refused: (route.hops[0] as { usage?: Usage }).usage!, own: usage! };
}

describe('usage of a structured fallback over hops reporting usage in different shapes', () => {
  it('generateText, the refused hop without total_tokens: every token in the total', async () => {
    const result = await generateText({
      model: claimedFirst({ [CLAIMED_MODEL]: partsOnly }),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
    });
    expect(result.output).toEqual({ city: 'Oslo' });
    const { refused, own } = usages(result.providerMetadata?.infergate);
    expect(refused).not.toHaveProperty('total_tokens');
    expect(result.usage).toMatchObject({
      inputTokens: refused.prompt_tokens + own.prompt_tokens,
      outputTokens: refused.completion_tokens + own.completion_tokens,
      totalTokens: refused.prompt_tokens + refused.completion_tokens + own.total_tokens,
    });
  });

  it('streamText, the answer without total_tokens: every token in the total', async () => {
    const result = streamText({
      model: claimedFirst({ 'community/general': partsOnly }),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
    });
    await result.consumeStream();
    const { refused, own } = usages((await result.providerMetadata)?.infergate);
    expect(own).not.toHaveProperty('total_tokens');
    expect((await result.usage).totalTokens).toBe(
      refused.total_tokens + own.prompt_tokens + own.completion_tokens,
    );
  });

  it('generateText, the refused hop with only total_tokens: no input or output of its own', async () => {
    const result = await generateText({
      model: claimedFirst({ [CLAIMED_MODEL]: totalOnly }),
      output: Output.object({ schema: Place }),
      prompt: QUESTION,
    });
    const { refused, own } = usages(result.providerMetadata?.infergate);
    expect(Object.keys(refused)).toEqual(['total_tokens']);
    expect(result.usage).toMatchObject({
      inputTokens: own.prompt_tokens,
      outputTokens: own.completion_tokens,
      totalTokens: own.prompt_tokens + own.completion_tokens,
    });
  });
});

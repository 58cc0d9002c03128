// docs/gateway-protocol.md §4.3 (`usage`), §4.8 item 5: a structured call whose first model's answer
// failed the schema and whose fallback answered spent both answers' tokens. Core reports the refused
// answer's usage on its hop of the route; the message's `usage_metadata` (and so `handleLLMEnd`'s
// `llmOutput.tokenUsage` and LangChain's usage callbacks) counts every answer the call paid for, on
// invoke and stream alike; `response_metadata.usage` stays the answering model's own.
import { CLAIMED_MODEL, withClaimedModel } from '@infergate/emulator/testing';
import type { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel, type GatewayResponseMetadata } from '../src/index';
import { recordingGateway } from './helpers';

const Place = z.object({ city: z.string() });
const QUESTION = 'Where is "Oslo"?';
const SCHEMA = {
  type: 'json_schema',
  json_schema: { name: 'place', schema: z.toJSONSchema(Place) },
} as const;

/** `community/claimed` (answers off the schema) falling back to `community/general`. */
async function claimedFirst() {
  const { connection } = await recordingGateway(withClaimedModel());
  return new GatewayChatModel(CLAIMED_MODEL, {
    ...connection,
    fallbackModels: ['community/general'],
  });
}

/** The usage each answer of the route reported, added up (the refused one's is on its hop). */
function spentByBoth(message: AIMessage | AIMessageChunk) {
  const { route } = message.response_metadata as GatewayResponseMetadata;
  const hops = (route?.hops ?? []) as { usage?: Record<string, number> }[];
  const refused = hops[0]?.usage;
  const answered = message.response_metadata.usage as Record<string, number>;
  expect(refused?.total_tokens).toBeGreaterThan(0);
  return {
    input_tokens: refused!.prompt_tokens! + answered.prompt_tokens!,
    output_tokens: refused!.completion_tokens! + answered.completion_tokens!,
    total_tokens: refused!.total_tokens! + answered.total_tokens!,
  };
}

describe('usage of a structured call answered by its fallback', () => {
  it('invoke(): usage_metadata and handleLLMEnd count the refused answer too', async () => {
    const model = await claimedFirst();
    const ends: LLMResult[] = [];
    const result = (await model.withStructuredOutput(Place, { includeRaw: true }).invoke(QUESTION, {
      callbacks: [{ handleLLMEnd: (output: LLMResult) => void ends.push(output) }],
    })) as { raw: AIMessage; parsed: unknown };
    expect(result.parsed).toEqual({ city: 'Oslo' });
    const both = spentByBoth(result.raw);
    expect(result.raw.usage_metadata).toMatchObject(both);
    expect(ends[0]?.llmOutput?.tokenUsage).toEqual({
      promptTokens: both.input_tokens,
      completionTokens: both.output_tokens,
      totalTokens: both.total_tokens,
    });
  });

  it("stream(): the joined chunks' usage_metadata counts both answers", async () => {
    const model = await claimedFirst();
    let joined: AIMessageChunk | undefined;
    for await (const chunk of await model.stream(QUESTION, { response_format: SCHEMA })) {
      joined = joined ? joined.concat(chunk) : chunk;
    }
    expect(joined?.usage_metadata).toMatchObject(spentByBoth(joined!));
  });

  it('includeRaw on a call every model refused: the raw message counts every refused answer', async () => {
    const { connection } = await recordingGateway({
      ...withClaimedModel(),
      models: {
        ...withClaimedModel().models,
        'x/bad': {
          owned_by: 'service-community',
          capabilities: ['chat', 'streaming', 'json_schema'],
          jsonAnswers: { offSchemaShare: 1 },
        },
      },
    });
    const model = new GatewayChatModel(CLAIMED_MODEL, { ...connection, fallbackModels: ['x/bad'] });
    const result = (await model
      .withStructuredOutput(Place, { includeRaw: true })
      .invoke(QUESTION, { structuredOutput: { lastAnswer: 'checked' } })) as {
      raw: AIMessage;
      parsed: unknown;
    };
    expect(result.parsed).toBeNull();
    const { route } = result.raw.response_metadata as GatewayResponseMetadata;
    const hops = (route?.hops ?? []) as { usage?: Record<string, number> }[];
    const totals = hops.map((hop) => hop.usage?.total_tokens ?? 0);
    expect(totals.every((total) => total > 0)).toBe(true);
    expect(result.raw.usage_metadata?.total_tokens).toBe(totals[0]! + totals[1]!);
  });
});

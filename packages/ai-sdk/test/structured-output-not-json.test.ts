// A schema call whose last answer is not JSON (the emulator's `[[invalid_json]]`: JSON cut short),
// through ai's entry points of ai@7 and ai@6 (`/v6`): core hands the answer on unchecked
// (`lastAnswer: 'returned'`), so ai refuses it by its own rules, as it does any provider's —
// generateText rejects with its NoObjectGeneratedError (the text, the response, the finish and
// the usage in ai's shape), streamText finishes normally and its `output` rejects with it, and
// generateObject / streamObject hand the text to `repairText`. A model before the last that
// answers no JSON is still refused and moved on from.

import { emulate } from '@infergate/emulator/testing';
import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import type { GatewayProviderMetadata } from '../src';
import { providersOn } from './providers';

/** Serves `json_schema`; answers JSON cut short when the prompt says `[[invalid_json]]`. */
const GENERAL = 'community/general';
/** Serves `json_schema`, its every JSON answer cut short (not JSON). */
const CUT = 'community/json-cut';
const NATIVE = 'community/json-schema';

const json = ['chat' as const, 'streaming' as const, 'json_schema' as const];
const listed = { owned_by: 'service-community' as const, online: true, capabilities: json };
const emulated = await emulate({
  scenario: {
    models: {
      [GENERAL]: listed,
      [NATIVE]: listed,
      [CUT]: { ...listed, jsonAnswers: { invalidShare: 1 } },
    },
  },
  hooks: { afterEach, afterAll },
});
const { gateway, gatewayV3 } = providersOn(emulated);

const Answer = z.object({ answer: z.string() });
const prompt = 'Where is "Kyiv"? [[invalid_json]]';
/** What the emulator answers to `prompt`: JSON cut short. */
const CUT_SHORT = '{"answer": "unterminated';

type AiModule = Pick<
  typeof ai7,
  | 'generateText'
  | 'streamText'
  | 'generateObject'
  | 'streamObject'
  | 'Output'
  | 'NoObjectGeneratedError'
>;

describe.each([
  { name: 'ai@7', ai: ai7 as AiModule, provider: gateway },
  { name: 'ai@6 (/v6)', ai: ai6 as unknown as AiModule, provider: gatewayV3 },
])('$name: a last answer that is not JSON is ai’s to refuse', ({ ai, provider }) => {
  const model = (id = GENERAL) => provider({ fetch: emulated.fetch, circuitBreaker: false })(id);
  const output = () => ai.Output.object({ schema: Answer });

  it('generateText + Output.object rejects with NoObjectGeneratedError: text, response, finish, usage', async () => {
    const error = await ai
      .generateText({ model: model(), output: output(), prompt, maxRetries: 0 })
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(ai.NoObjectGeneratedError.isInstance(error), String(error)).toBe(true);
    const failure = error as ai7.NoObjectGeneratedError;
    expect(failure.text).toBe(CUT_SHORT);
    expect(failure.finishReason).toBe('stop');
    expect(failure.response?.id).toEqual(expect.any(String));
    // ai's usage shape (numbers), as for any provider's answer.
    expect(failure.usage?.inputTokens).toBeGreaterThan(0);
    expect(failure.usage?.outputTokens).toBeGreaterThan(0);
  });

  it('streamText + Output.object finishes normally (no onError); its output rejects', async () => {
    const events: string[] = [];
    const result = ai.streamText({
      model: model(),
      output: output(),
      prompt,
      maxRetries: 0,
      onError: ({ error }) => {
        events.push(`error ${String(error)}`);
      },
      onFinish: ({ finishReason }) => {
        events.push(`finish ${finishReason}`);
      },
    });
    await result.consumeStream();
    expect(await result.text).toBe(CUT_SHORT);
    expect(await result.finishReason).toBe('stop');
    expect(events).toEqual(['finish stop']);
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
    const error = await Promise.resolve(result.output).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(ai.NoObjectGeneratedError.isInstance(error), String(error)).toBe(true);
  });

  it('generateObject and streamObject hand the text to repairText, once', async () => {
    const repaired: string[] = [];
    const repairText = async ({ text }: { text: string }) => {
      repaired.push(text);
      return `${text}"}`;
    };
    const whole = await ai.generateObject({
      model: model(),
      schema: Answer,
      prompt,
      maxRetries: 0,
      experimental_repairText: repairText,
    });
    expect(whole.object).toEqual({ answer: 'unterminated' });
    expect(repaired).toEqual([CUT_SHORT]);
    const streamed = ai.streamObject({
      model: model(),
      schema: Answer,
      prompt,
      maxRetries: 0,
      experimental_repairText: repairText,
      onError: () => {},
    });
    for await (const _ of streamed.partialObjectStream) {
      // read to the end
    }
    expect(await streamed.object).toEqual({ answer: 'unterminated' });
    expect(repaired).toEqual([CUT_SHORT, CUT_SHORT]);
  });

  it('a model before the last that answers no JSON is refused and moved on from', async () => {
    const result = await ai.generateText({
      model: model(CUT),
      output: output(),
      prompt: 'Where is "Kyiv"?',
      providerOptions: { infergate: { fallbackModels: [NATIVE] } },
      maxRetries: 0,
    });
    expect(Answer.safeParse(result.output).success).toBe(true);
    const metadata = result.providerMetadata?.infergate as GatewayProviderMetadata | undefined;
    expect(metadata?.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      [CUT, 'failed'],
      [NATIVE, 'answered'],
    ]);
  });
});

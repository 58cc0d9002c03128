// generateText + Output.object on a whole answer the model server sends as a stream would carry
// it (ai@7 and ai@6): a refusal is its text once (ai's NoObjectGeneratedError quotes it once, as
// streamText and @ai-sdk/openai-compatible do), a `tools`-served answer cut at the length limit
// finishes `length` (not `stop`), and Mistral's `thinking` parts stay the reasoning.
import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { answeringChats, type ChatBody, providersOnMsw } from './providers';

const { gateway, gatewayV3 } = await providersOnMsw();
const Place = z.object({ city: z.string() });

/** A fetch answering every chat request with `message` (choice 0) and `finish`. */
const answering = (message: (body: ChatBody) => object, finish = 'stop') =>
  answeringChats((body) =>
    Response.json({
      id: 'g',
      object: 'chat.completion',
      model: body.model,
      choices: [
        { index: 0, message: { role: 'assistant', ...message(body) }, finish_reason: finish },
      ],
    }),
  );

type AiModule = Pick<typeof ai7, 'generateText' | 'Output' | 'NoObjectGeneratedError'>;

describe.each([
  { name: 'ai@7', ai: ai7 as AiModule, provider: gateway },
  { name: 'ai@6 (/v6)', ai: ai6 as unknown as AiModule, provider: gatewayV3 },
])('$name: a structured whole answer as its stream gives it', ({ ai, provider }) => {
  /** generateText + Output.object of `model` answered by `fetch`: its failure. */
  const failure = async (model: string, fetch: typeof globalThis.fetch) => {
    const error = await ai
      .generateText({
        model: provider({ fetch, circuitBreaker: false })(model),
        output: ai.Output.object({ schema: Place }),
        prompt: 'Where?',
        maxOutputTokens: 5,
        maxRetries: 0,
      })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(ai.NoObjectGeneratedError.isInstance(error), String(error)).toBe(true);
    return error as ai7.NoObjectGeneratedError;
  };

  it("a refusal is the error's text once, finishing content-filter", async () => {
    const REFUSAL = "I can't help with that.";
    const fetch = answering(() => ({ content: null, refusal: REFUSAL }));
    const error = await failure('community/json-schema', fetch);
    expect(error.text).toBe(REFUSAL);
    expect(error.finishReason).toBe('content-filter');
  });

  it('a tools-served answer cut at the length limit finishes length', async () => {
    const CUT = '{"city":"Os';
    const fetch = answering((body) => {
      const name = (body.tool_choice as { function: { name: string } }).function.name;
      const call = { id: 'c', type: 'function', function: { name, arguments: CUT } };
      return { content: null, tool_calls: [call] };
    }, 'length');
    const error = await failure('community/tools', fetch);
    expect(error.text).toBe(CUT);
    expect(error.finishReason).toBe('length');
  });
});

describe("Output.object keeps Mistral's thinking parts", () => {
  it('as reasoningText, as a plain call does', async () => {
    const thinking = [{ type: 'text', text: 'Oslo is the capital.' }];
    const content = [
      { type: 'thinking', thinking },
      { type: 'text', text: '{"city":"Oslo"}' },
    ];
    const result = await ai7.generateText({
      model: gateway({ fetch: answering(() => ({ content })) })('community/json-schema'),
      output: ai7.Output.object({ schema: Place }),
      prompt: 'Where?',
    });
    expect(result.output).toEqual({ city: 'Oslo' });
    expect(result.reasoningText).toBe('Oslo is the capital.');
  });
});

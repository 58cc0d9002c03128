// A thinking model (DeepSeek V4, Kimi K2) refuses a tool-call turn sent back without its reasoning
// with a 400. A model made with `sendReasoning: false` left it out: the `APICallError` of
// `generateText` and `streamText` names `sendReasoning: true` after the server's words (core's
// rule, `namingSendReasoning`); by default (the reasoning of a tool-call turn sent back) the loop
// is answered.
import { APICallError } from '@ai-sdk/provider';
import { generateText, type ModelMessage, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { dialectModels, providersOnMsw } from './providers';
import { WEATHER_TOOL } from './weather-tool';

const { gateway } = await providersOnMsw(dialectModels({ thinking: 'deepseek-thinking' }));

const loop = { tools: { weather: tool(WEATHER_TOOL) }, stopWhen: stepCountIs(2) };
const PROMPT = 'Use weather for "Kyiv"';
const REFUSED = 'The `reasoning_content` in the thinking mode must be passed back to the API.';
const HINT = 'set sendReasoning: true on the model';

describe("a thinking model's 400 for a tool-call turn sent back without its reasoning", () => {
  it('sendReasoning: false: generateText and streamText name sendReasoning: true', async () => {
    const model = gateway()('dialect/thinking', { sendReasoning: false });
    const failure = await generateText({ model, ...loop, prompt: PROMPT, maxRetries: 0 }).catch(
      (error: unknown) => error,
    );
    expect(APICallError.isInstance(failure), String(failure)).toBe(true);
    const { message, statusCode } = failure as APICallError;
    expect(statusCode).toBe(400);
    expect(message.indexOf(REFUSED)).toBeGreaterThanOrEqual(0);
    expect(message.indexOf(HINT)).toBeGreaterThan(message.indexOf(REFUSED));

    const errors: unknown[] = [];
    const streamed = streamText({
      model,
      ...loop,
      prompt: PROMPT,
      maxRetries: 0,
      onError: ({ error }) => void errors.push(error),
    });
    await streamed.consumeStream();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toContain(HINT);
  });

  it('by default the reasoning goes back and the loop is answered', async () => {
    const result = await generateText({
      model: gateway()('dialect/thinking'),
      ...loop,
      prompt: PROMPT,
    });
    expect(result.steps).toHaveLength(2);
  });
});

// Only when the model withheld it (`sendReasoning: false`): by default every tool-call turn's
// reasoning already goes back, so a history that never had it (another model's turn) is not
// helped by the setting, and the hint would mislead (rv-28f F1).
/** A history whose tool-call turn has no reasoning: another model wrote it. */
const messages: ModelMessage[] = [
  { role: 'user', content: 'weather in Kyiv?' },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Kyiv' } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'weather',
        output: { type: 'json', value: { t: 3 } },
      },
    ],
  },
];

it.each([
  ['unset', false, undefined],
  ['true', false, { sendReasoning: true }],
  ['false', true, { sendReasoning: false }],
])('sendReasoning %s: hinted %s', async (_, hinted, settings) => {
  const failure = await generateText({
    model: gateway()('dialect/thinking', settings),
    messages,
    maxRetries: 0,
  }).catch((error: unknown) => error);
  expect(APICallError.isInstance(failure), String(failure)).toBe(true);
  expect((failure as APICallError).statusCode).toBe(400);
  expect((failure as APICallError).message.includes('set sendReasoning: true')).toBe(hinted);
});

// Groq (and Cerebras) refuse an earlier turn's `reasoning_content` with a 400. By default the
// reasoning of a tool-call turn goes back (thinking models need it), so a tool loop on Groq fails
// on its second step: the `APICallError` names `sendReasoning: false` after the server's words
// (core's rule, `namingSendReasoning`); a model made with `sendReasoning: false` is answered.
import { APICallError } from '@ai-sdk/provider';
import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { dialectModels, providersOnMsw } from './providers';
import { WEATHER_TOOL } from './weather-tool';

const { gateway } = await providersOnMsw(dialectModels({ groq: 'groq' }));

const loop = { tools: { weather: tool(WEATHER_TOOL) }, stopWhen: stepCountIs(2) };
const PROMPT = 'Use weather for "Kyiv"';
const REFUSED = "property 'reasoning_content' is unsupported";
const HINT = 'set sendReasoning: false on the model';

describe("Groq's 400 for an earlier turn's reasoning sent back", () => {
  it('by default: the error names sendReasoning: false after the server words', async () => {
    const failure = await generateText({
      model: gateway()('dialect/groq'),
      ...loop,
      prompt: PROMPT,
      maxRetries: 0,
    }).catch((error: unknown) => error);
    expect(APICallError.isInstance(failure), String(failure)).toBe(true);
    const { message, statusCode } = failure as APICallError;
    expect(statusCode).toBe(400);
    expect(message.indexOf(REFUSED)).toBeGreaterThanOrEqual(0);
    expect(message.indexOf(HINT)).toBeGreaterThan(message.indexOf(REFUSED));
  });

  it('sendReasoning: false: the loop is answered', async () => {
    const result = await generateText({
      model: gateway()('dialect/groq', { sendReasoning: false }),
      ...loop,
      prompt: PROMPT,
    });
    expect(result.steps).toHaveLength(2);
  });
});

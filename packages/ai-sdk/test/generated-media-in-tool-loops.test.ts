// A model that speaks (audio) or draws (an image) while it calls a tool: ai hands step 1's
// generated file back in the assistant message of step 2. The audio goes back by its id
// (`audio: {id}`, OpenAI's form); an image has no field on the wire: left out with one warning.
// The loop completes, as with @ai-sdk/openai-compatible, on both majors and both methods.
import { oneMessageAnswer } from '@infergate/emulator/testing';
import * as ai from 'ai';
import * as ai6 from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { answeringChats, type ChatBody, providersOnMsw } from './providers';
import { WEATHER_TOOL } from './weather-tool';

const { gateway, gatewayV3 } = await providersOnMsw();
const WAV = 'UklGRiQAAABXQVZF';
const PNG = 'iVBORw0KGgo=';
const CALL = {
  id: 't1',
  type: 'function',
  function: { name: 'weather', arguments: '{"city":"Oslo"}' },
};

/** Step 1: `media` and a weather call; step 2: "sunny". Keeps each chat request's body. */
function toolLoopAnswers(media: Record<string, unknown>) {
  const bodies: ChatBody[] = [];
  const fetch = answeringChats((body) => {
    bodies.push(body);
    const stream = body.stream === true;
    return bodies.length === 1
      ? oneMessageAnswer(
          body.model,
          { content: null, ...media, tool_calls: [CALL] },
          'tool_calls',
          stream,
        )
      : oneMessageAnswer(body.model, { content: 'sunny' }, 'stop', stream);
  });
  return { bodies, fetch };
}

const AUDIO = { audio: { id: 'audio_1', data: WAV, transcript: 'let me check' } };
const IMAGES = {
  images: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }],
};

type Run = (
  fetch: typeof globalThis.fetch,
) => Promise<{ text: string; steps: number; warnings: unknown[] }>;

const runs: Record<string, Run> = {
  'ai@7 generateText': async (fetch) => {
    const r = await ai.generateText({
      model: gateway({ fetch, circuitBreaker: false })('community/general'),
      prompt: 'weather in Oslo?',
      tools: { weather: ai.tool(WEATHER_TOOL) },
      stopWhen: ai.stepCountIs(3),
      maxRetries: 0,
    });
    return { text: r.text, steps: r.steps.length, warnings: r.steps[1]?.warnings ?? [] };
  },
  'ai@7 streamText': async (fetch) => {
    const r = ai.streamText({
      model: gateway({ fetch, circuitBreaker: false })('community/general'),
      prompt: 'weather in Oslo?',
      tools: { weather: ai.tool(WEATHER_TOOL) },
      stopWhen: ai.stepCountIs(3),
      maxRetries: 0,
    });
    for await (const part of r.fullStream) if (part.type === 'error') throw part.error;
    const steps = await r.steps;
    return { text: await r.text, steps: steps.length, warnings: steps[1]?.warnings ?? [] };
  },
  'ai@6 generateText': async (fetch) => {
    const r = await ai6.generateText({
      model: gatewayV3({ fetch, circuitBreaker: false })('community/general'),
      prompt: 'weather in Oslo?',
      tools: { weather: ai6.tool(WEATHER_TOOL) },
      stopWhen: ai6.stepCountIs(3),
      maxRetries: 0,
    });
    return { text: r.text, steps: r.steps.length, warnings: r.steps[1]?.warnings ?? [] };
  },
  'ai@6 streamText': async (fetch) => {
    const r = ai6.streamText({
      model: gatewayV3({ fetch, circuitBreaker: false })('community/general'),
      prompt: 'weather in Oslo?',
      tools: { weather: ai6.tool(WEATHER_TOOL) },
      stopWhen: ai6.stepCountIs(3),
      maxRetries: 0,
    });
    for await (const part of r.fullStream) if (part.type === 'error') throw part.error;
    const steps = await r.steps;
    return { text: await r.text, steps: steps.length, warnings: steps[1]?.warnings ?? [] };
  },
};

describe.each(Object.entries(runs))('%s: a tool loop with generated media', (_label, run) => {
  it('the audio goes back by its id; the loop ends with the answer', async () => {
    const { bodies, fetch } = toolLoopAnswers(AUDIO);
    const { text, steps } = await run(fetch);
    expect({ text, steps }).toEqual({ text: 'sunny', steps: 2 });
    const messages = bodies[1]?.messages as Record<string, unknown>[];
    const assistant = messages.find((message) => message.role === 'assistant');
    expect(assistant).toMatchObject({ audio: { id: 'audio_1' }, tool_calls: [{ id: 't1' }] });
  });

  it('an image is left out of the assistant message, with one warning', async () => {
    const { bodies, fetch } = toolLoopAnswers(IMAGES);
    const { text, steps, warnings } = await run(fetch);
    expect({ text, steps }).toEqual({ text: 'sunny', steps: 2 });
    const messages = bodies[1]?.messages as Record<string, unknown>[];
    const assistant = messages.find((message) => message.role === 'assistant');
    expect(assistant).not.toHaveProperty('audio');
    expect(JSON.stringify(assistant)).not.toContain(PNG);
    expect(warnings).toEqual([
      expect.objectContaining({ type: 'unsupported', feature: 'file parts in assistant messages' }),
    ]);
  });
});

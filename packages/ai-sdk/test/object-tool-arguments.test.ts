// A tool call whose `function.arguments` is JSON, not its text (llama.cpp#20198; docs/gateway-protocol.md
// §4.4, §5.4): `generateText` and `streamText` run the tool with the arguments as sent and keep
// the step's text; arguments that are JSON but no object give an invalid call, the text kept.

import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';
import { WEATHER_TOOL } from './weather-tool';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';
const TEXT = 'Let me check.';

/** Chat chunks of one step: its text, then (on the first step) a call of weather with `args`. */
function stepDeltas(step: number, args: unknown): Record<string, unknown>[] {
  if (step > 0) return [{ role: 'assistant', content: 'It is 21 °C.' }];
  const call = { id: 'c1', type: 'function', function: { name: 'weather', arguments: args } };
  return [{ role: 'assistant', content: TEXT }, { tool_calls: [{ index: 0, ...call }] }];
}

/** A server answering step n with `stepDeltas(n)`, streamed or as one message (merged). */
function serverWith(args: unknown): typeof globalThis.fetch {
  let step = 0;
  return answeringChats((body) => {
    const deltas = stepDeltas(step, args);
    const reason = step++ === 0 ? 'tool_calls' : 'stop';
    const headers = { 'x-service-model': MODEL };
    if (body.stream !== true) {
      const message = Object.assign({}, ...deltas);
      const choices = [{ index: 0, message, finish_reason: reason }];
      return Response.json({ id: 'g', object: 'chat.completion', choices }, { headers });
    }
    const last = { delta: {}, finish_reason: reason };
    const lines = [...deltas.map((delta) => ({ delta })), last].map(
      (choice) =>
        `data: ${JSON.stringify({ id: 's', object: 'chat.completion.chunk', choices: [{ index: 0, ...choice }] })}\n\n`,
    );
    lines.push('data: [DONE]\n\n');
    return new Response(lines.join(''), {
      headers: { ...headers, 'content-type': 'text/event-stream' },
    });
  });
}

/** The first step's text and its calls' outcomes, from generateText and from streamText. */
async function firstStepBothWays(args: unknown) {
  const options = { prompt: 'weather in Kyiv?', tools: { weather: tool(WEATHER_TOOL) } };
  const whole = await generateText({
    ...options,
    model: gateway({ fetch: serverWith(args) })(MODEL),
    stopWhen: stepCountIs(2),
  });
  const streamed = streamText({
    ...options,
    model: gateway({ fetch: serverWith(args) })(MODEL),
    stopWhen: stepCountIs(2),
  });
  return [whole.steps, await streamed.steps].map((steps) => ({
    text: steps[0]?.text,
    outcomes: steps[0]?.content.flatMap((part) =>
      part.type === 'tool-result' || part.type === 'tool-error'
        ? [{ type: part.type, input: part.input, output: 'output' in part ? part.output : 'error' }]
        : [],
    ),
    steps: steps.length,
  }));
}

describe('tool-call arguments sent as a JSON object, through generateText and streamText', () => {
  it('the tool runs with those arguments, the text is kept and the loop goes on', async () => {
    for (const step of await firstStepBothWays({ city: 'Kyiv' })) {
      expect(step).toEqual({
        text: TEXT,
        outcomes: [
          { type: 'tool-result', input: { city: 'Kyiv' }, output: { city: 'Kyiv', celsius: 21 } },
        ],
        steps: 2,
      });
    }
  });

  it('arguments that are a number: the call fails as invalid, the text is kept', async () => {
    for (const step of await firstStepBothWays(7)) {
      expect(step).toMatchObject({ text: TEXT, outcomes: [{ type: 'tool-error' }] });
    }
  });
});

// Structured answers of shapes the emulator does not make, through ai's generateText / streamText
// with `Output.object`, on exact bytes (a scripted chat endpoint; the emulator's catalog): a model
// served by a forced schema tool that writes prose first or calls the tool twice; a think block
// (`<think>…</think>`) before the JSON; and `request.body` as core sent it.

import { emulate, OFF_SCHEMA_THINKING_PIECES } from '@infergate/emulator/testing';
import { generateText, Output, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import type { createGateway, GatewayProviderMetadata, GatewayProviderSettings } from '../src';
import { gatewayThrough } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });

/** What the chat endpoint answers: a stream's chunk deltas and finish, and the whole message. */
interface Answer {
  deltas: Record<string, unknown>[];
  message: Record<string, unknown>;
  finish: string;
}

/** A provider whose chat completions are `answer` (other paths: the emulator); bodies kept. */
function scripted(answer: Answer, settings: Partial<GatewayProviderSettings> = {}) {
  const sent: Record<string, unknown>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return emulated.fetch(request);
    const body = (await request.json()) as Record<string, unknown>;
    sent.push(body);
    const headers = { 'x-service-model': String(body.model) };
    if (body.stream !== true) {
      const choice = { index: 0, message: answer.message, finish_reason: answer.finish };
      return Response.json({ id: 'a', object: 'chat.completion', choices: [choice] }, { headers });
    }
    const choices = [
      ...answer.deltas.map((delta) => ({ index: 0, delta })),
      { index: 0, delta: {}, finish_reason: answer.finish },
    ];
    const lines = choices.map(
      (choice) =>
        `data: ${JSON.stringify({ id: 'a', object: 'chat.completion.chunk', choices: [choice] })}\n\n`,
    );
    return new Response(`${lines.join('')}data: [DONE]\n\n`, {
      headers: { 'content-type': 'text/event-stream', ...headers },
    });
  };
  const gateway = gatewayThrough(emulated, fetch, settings);
  return { gateway, sent };
}

const City = z.object({ city: z.string() });
const call = (index: number, args: string) => ({
  index,
  id: `c${index}`,
  type: 'function',
  function: { name: 'response', arguments: args },
});

/** generateText and streamText (its text, output, finish and the error its onError saw). */
async function both(model: ReturnType<ReturnType<typeof createGateway>>) {
  const whole = await generateText({ model, prompt: 'x', output: Output.object({ schema: City }) });
  const errors: unknown[] = [];
  const stream = streamText({
    model,
    prompt: 'x',
    output: Output.object({ schema: City }),
    onError: ({ error }) => {
      errors.push(error);
    },
  });
  await stream.consumeStream();
  return {
    whole: { output: whole.output, text: whole.text, reasoning: whole.reasoningText },
    stream: {
      output: await Promise.resolve(stream.output).catch((error: Error) => error.name),
      text: await stream.text,
      reasoning: await stream.reasoningText,
      finish: await stream.finishReason,
      errors,
    },
  };
}

describe('a schema served by a forced tool call (community/tools)', () => {
  it('leaves out the prose the model writes before the call, as generateText does', async () => {
    const { gateway } = scripted({
      deltas: [
        { role: 'assistant', content: 'Sure! ' },
        { tool_calls: [call(0, '{"city":')] },
        { tool_calls: [{ index: 0, function: { arguments: '"Kyiv"}' } }] },
      ],
      message: { role: 'assistant', content: 'Sure! ', tool_calls: [call(0, '{"city":"Kyiv"}')] },
      finish: 'tool_calls',
    });
    const { whole, stream } = await both(gateway('community/tools'));
    expect(whole).toEqual({
      output: { city: 'Kyiv' },
      text: '{"city":"Kyiv"}',
      reasoning: undefined,
    });
    expect(stream).toEqual({
      output: { city: 'Kyiv' },
      text: '{"city":"Kyiv"}',
      reasoning: undefined,
      finish: 'stop',
      errors: [],
    });
  });

  it('takes the first call of the schema tool when the model calls it twice', async () => {
    const { gateway } = scripted({
      deltas: [
        { role: 'assistant', tool_calls: [call(0, '{"city":"Kyiv"}')] },
        { tool_calls: [call(1, '{"city":"Lviv"}')] },
      ],
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [call(0, '{"city":"Kyiv"}'), call(1, '{"city":"Lviv"}')],
      },
      finish: 'tool_calls',
    });
    const { whole, stream } = await both(gateway('community/tools'));
    expect(whole.output).toEqual({ city: 'Kyiv' });
    expect(stream).toMatchObject({ output: { city: 'Kyiv' }, text: '{"city":"Kyiv"}', errors: [] });
  });
});
describe('a think block before the JSON (a reasoning model served without a reasoning parser)', () => {
  const answers = {
    'bare JSON': '<think>The user asks {where}. Kyiv.</think>\n\n{"city":"Kyiv"}',
    'a fence': ' <think>Kyiv.</think>\n```json\n{"city":"Kyiv"}\n```',
  };
  it.each(Object.entries(answers))(
    'gives the block as reasoning and checks the JSON after it (%s)',
    async (_, content) => {
      const pieces = content.match(/[\s\S]{1,5}/g) ?? [];
      const { gateway } = scripted({
        deltas: pieces.map((piece) => ({ content: piece })),
        message: { role: 'assistant', content },
        finish: 'stop',
      });
      const reasoning = /<think>([\s\S]*)<\/think>/.exec(content)?.[1];
      const { whole, stream } = await both(gateway('community/json-schema'));
      expect(whole).toEqual({ output: { city: 'Kyiv' }, text: '{"city":"Kyiv"}', reasoning });
      expect(stream).toEqual({
        output: { city: 'Kyiv' },
        text: '{"city":"Kyiv"}',
        reasoning,
        finish: 'stop',
        errors: [],
      });
    },
  );

  it('leaves a think block in a plain answer alone (the caller’s middleware reads it there)', async () => {
    const content = '<think>hm</think>Kyiv';
    const { gateway } = scripted({ deltas: [{ content }], message: { content }, finish: 'stop' });
    const result = await generateText({ model: gateway('community/general'), prompt: 'x' });
    expect(result.text).toBe(content);
  });
});

describe('request.body', () => {
  it('is the body core sent, a schema served by a forced tool as that tool (as the events carry it)', async () => {
    const inputs: string[] = [];
    const { gateway, sent } = scripted(
      {
        deltas: [],
        message: { content: null, tool_calls: [call(0, '{"city":"Kyiv"}')] },
        finish: 'tool_calls',
      },
      {
        recordContent: true,
        onEvent: (event) => {
          if ('input' in event && typeof event.input === 'string') inputs.push(event.input);
        },
      },
    );
    const result = await generateText({
      model: gateway('community/tools'),
      prompt: 'x',
      output: Output.object({ schema: City }),
      include: { requestBody: true },
    });
    expect(result.request.body).toEqual(sent[0]);
    expect(result.request.body).not.toHaveProperty('response_format');
    expect(sent[0]).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'response' } },
    });
    expect(inputs.map((input) => JSON.parse(input))).toContainEqual(sent[0]);
  });
});

describe('an answer that fails the check, its bytes in one read', () => {
  it('streamText gives the JSON alone as text, the think block as reasoning; ai refuses it after', async () => {
    const content = OFF_SCHEMA_THINKING_PIECES.join('');
    const { gateway } = scripted({
      deltas: OFF_SCHEMA_THINKING_PIECES.map((piece) => ({ content: piece })),
      message: { role: 'assistant', content },
      finish: 'stop',
    });
    const stream = streamText({
      model: gateway('community/json-schema'),
      prompt: 'x',
      output: Output.object({ schema: City }),
      onError: () => {},
    });
    const parts: string[] = [];
    for await (const part of stream.fullStream) {
      if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
        parts.push(`${part.type}:${part.text}`);
      }
    }
    expect(parts).toEqual(['reasoning-delta:secret plan', 'text-delta:{"nope"', 'text-delta::1}']);
    // The last answer is ai's to refuse, by the caller's schema.
    await expect(stream.output).rejects.toMatchObject({ name: 'AI_NoObjectGeneratedError' });
  });
});

describe("the caller's zod schema decides the last answer (ai validates it after core)", () => {
  // ai sends the regex without its `i` flag: core's JSON Schema check refuses "OSLO", zod accepts.
  const Code = z.object({ code: z.string().regex(/^[a-z]+$/i) });
  const content = '{"code":"OSLO"}';
  const answer = { deltas: [{ content }], message: { role: 'assistant', content }, finish: 'stop' };
  const infergate = (fallbackModels: string[]) => ({ infergate: { fallbackModels } });
  const hopsOf = (metadata: unknown) =>
    (metadata as { infergate: GatewayProviderMetadata }).infergate.route.hops.map(
      (hop) => `${hop.model}:${hop.outcome}:${'reason' in hop ? hop.reason : ''}`,
    );

  it.each([
    ['one model', [], ['community/json-schema:answered:']],
    [
      'a fallback list: the first hop refused moves on, the last returned',
      ['community/general'],
      ['community/json-schema:failed:invalid_structured_output', 'community/general:answered:'],
    ],
  ])('generateText returns it as zod reads it (%s)', async (_, fallbackModels, hops) => {
    const { gateway } = scripted(answer);
    const result = await generateText({
      model: gateway('community/json-schema'),
      prompt: 'x',
      output: Output.object({ schema: Code }),
      providerOptions: infergate(fallbackModels),
    });
    expect(result.output).toEqual({ code: 'OSLO' });
    expect(hopsOf(result.providerMetadata)).toEqual(hops);
  });

  it.each([
    ['one model', []],
    ['a fallback list (its content streamed: the last hop)', ['community/general']],
  ])('streamText finishes normally with it (%s)', async (_, fallbackModels) => {
    const { gateway } = scripted(answer);
    const errors: unknown[] = [];
    const stream = streamText({
      model: gateway('community/json-schema'),
      prompt: 'x',
      output: Output.object({ schema: Code }),
      providerOptions: infergate(fallbackModels),
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await stream.consumeStream();
    expect(errors).toEqual([]);
    expect(await stream.output).toEqual({ code: 'OSLO' });
    expect(await stream.text).toBe(content);
  });

  it('a last answer zod refuses too ends as ai ends it (NoObjectGeneratedError)', async () => {
    const { gateway } = scripted({
      ...answer,
      deltas: [{ content: '{"code":"OS-LO"}' }],
      message: { role: 'assistant', content: '{"code":"OS-LO"}' },
    });
    const error = await generateText({
      model: gateway('community/json-schema'),
      prompt: 'x',
      output: Output.object({ schema: Code }),
    }).catch((failure: Error) => failure.name);
    expect(error).toBe('AI_NoObjectGeneratedError');
  });
});

// The last answer with no JSON where its method puts it is handed to ai (core's `lastAnswer:
// 'returned'`), which ends it as it ends any provider's (structured-output-not-json.test.ts).
describe('a forced schema tool answer with no JSON: ai ends it (NoObjectGeneratedError)', () => {
  /** generateText's error and streamText's end, on `answer`. */
  async function ended(answer: Answer) {
    const model = scripted(answer).gateway('community/tools');
    const output = () => Output.object({ schema: City });
    const whole = await generateText({ model, prompt: 'x', output: output(), maxRetries: 0 }).then(
      () => undefined,
      (failure: { name: string; text?: string; finishReason?: string }) => failure,
    );
    const errors: unknown[] = [];
    const stream = streamText({
      model,
      prompt: 'x',
      output: output(),
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await stream.consumeStream();
    return {
      whole: { name: whole?.name, text: whole?.text, finish: whole?.finishReason },
      stream: {
        output: await Promise.resolve(stream.output).catch((error: Error) => error.name),
        text: await stream.text,
        finish: await stream.finishReason,
        errors,
      },
    };
  }
  const refused = (text: string) => ({
    whole: { name: 'AI_NoObjectGeneratedError', text, finish: 'stop' },
    stream: { output: 'AI_NoObjectGeneratedError', text, finish: 'stop', errors: [] },
  });

  it('its arguments are not JSON: ai gets them as the text', async () => {
    const cut = '{"city":';
    const outcome = await ended({
      deltas: [{ role: 'assistant', tool_calls: [call(0, cut)] }],
      message: { role: 'assistant', content: null, tool_calls: [call(0, cut)] },
      finish: 'tool_calls',
    });
    expect(outcome).toEqual(refused(cut));
  });

  it('the model did not call the tool: its own text is not the answer, ai gets none', async () => {
    const outcome = await ended({
      deltas: [{ role: 'assistant', content: 'Kyiv, I think.' }],
      message: { role: 'assistant', content: 'Kyiv, I think.' },
      finish: 'stop',
    });
    expect(outcome).toEqual(refused(''));
  });
});

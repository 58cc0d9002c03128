// A schema call (Output.object, no tools of its own) answered by a call of a tool nobody offered
// (a model that "calls" the schema by its name): core reads it for its JSON like any answer, so
// the hop fails and the fallback model answers — ai never sees a call of a tool it did not offer.

import { emulate } from '@infergate/emulator/testing';
import { generateText, Output, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { providersOn, recordingChatBodies } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { gateway } = providersOn(emulated);

const STRAY = 'community/json-schema';
const call = { id: 'c1', type: 'function', function: { name: 'response', arguments: '{}' } };

/** `STRAY` answers with a call of `response`, whole or streamed; other models are the emulator's. */
async function send(request: Request): Promise<Response> {
  if (!request.url.endsWith('/chat/completions')) return emulated.fetch(request);
  const body = (await request.clone().json()) as { model: string; stream?: boolean };
  if (body.model !== STRAY) return emulated.fetch(request);
  const headers = { 'x-service-model': STRAY };
  const head = { id: 'x', created: 1, model: STRAY };
  if (!body.stream) {
    const message = { role: 'assistant', content: null, tool_calls: [call] };
    const choices = [{ index: 0, message, finish_reason: 'tool_calls' }];
    return Response.json({ ...head, object: 'chat.completion', choices }, { headers });
  }
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const text = `${chunk({ tool_calls: [{ index: 0, ...call }] }, null)}${chunk({}, 'tool_calls')}data: [DONE]\n\n`;
  return new Response(text, { headers: { ...headers, 'content-type': 'text/event-stream' } });
}

const output = () => Output.object({ schema: z.object({ answer: z.string() }) });
const prompt = 'Where is "Kyiv"?';

describe('Output.object answered by a call of a tool nobody offered', () => {
  it('generateText: the fallback model answers, its object checked', async () => {
    const { bodies, settings } = recordingChatBodies({ circuitBreaker: false }, send);
    const model = gateway(settings)(STRAY, { fallbackModels: ['community/general'] });
    const result = await generateText({ model, output: output(), prompt, maxRetries: 0 });
    expect(bodies.map((body) => body.model)).toEqual([STRAY, 'community/general']);
    expect(result.output).toEqual({ answer: 'Kyiv' });
    expect(result.content.map((part) => part.type)).toEqual(['text']);
  });

  it('streamText: the held stream moves on; no tool-call part reaches ai', async () => {
    const { bodies, settings } = recordingChatBodies({ circuitBreaker: false }, send);
    const model = gateway(settings)(STRAY, { fallbackModels: ['community/general'] });
    const result = streamText({ model, output: output(), prompt, maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(parts).not.toContain('tool-call');
    expect(await result.output).toEqual({ answer: 'Kyiv' });
    expect(bodies.map((body) => body.model)).toEqual([STRAY, 'community/general']);
  });

  it('on the last model: ai’s NoObjectGeneratedError, not a tool call', async () => {
    const { settings } = recordingChatBodies({ circuitBreaker: false }, send);
    const failure = await generateText({
      model: gateway(settings)(STRAY),
      output: output(),
      prompt,
      maxRetries: 0,
    }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.name).toBe('AI_NoObjectGeneratedError');
  });
});

// withStructuredOutput on an answer with a think block before its JSON (a reasoning model such as
// Qwen3 served without a reasoning parser), on exact bytes: core reads the block as reasoning and
// checks the JSON after it, whole (`invoke`) and streamed (`stream`).
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const CONTENT = '<think>The user asks {where}.</think>\n\n```json\n{"city":"Kyiv"}\n```';

/** The emulator, its chat completions answered with CONTENT (streamed in 5-character pieces). */
async function thinking() {
  return intercepting(await emulate(), async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const body = (await request.json()) as { stream?: boolean };
    const frame = (choice: object) =>
      `data: ${JSON.stringify({ id: 'a', object: 'chat.completion.chunk', choices: [choice] })}\n\n`;
    if (body.stream !== true) {
      const message = { role: 'assistant', content: CONTENT };
      const choices = [{ index: 0, message, finish_reason: 'stop' }];
      return Response.json({ id: 'a', object: 'chat.completion', choices });
    }
    const pieces = CONTENT.match(/[\s\S]{1,5}/g) ?? [];
    const frames = pieces.map((content) => frame({ index: 0, delta: { content } }));
    frames.push(frame({ index: 0, delta: {}, finish_reason: 'stop' }), 'data: [DONE]\n\n');
    return new Response(frames.join(''), { headers: { 'content-type': 'text/event-stream' } });
  });
}

describe('withStructuredOutput: a think block before the JSON', () => {
  it('invoke and stream give the object; the block is the raw message’s reasoning', async () => {
    const model = new GatewayChatModel('community/json-schema', await thinking());
    const structured = model.withStructuredOutput(z.object({ city: z.string() }), {
      includeRaw: true,
    });
    const { raw, parsed } = await structured.invoke('Where?');
    expect(parsed).toEqual({ city: 'Kyiv' });
    expect(raw.content).toBe('{"city":"Kyiv"}');
    expect(raw.additional_kwargs.reasoning_content).toBe('The user asks {where}.');
    const plain = model.withStructuredOutput(z.object({ city: z.string() }));
    const partials: unknown[] = [];
    for await (const partial of await plain.stream('Where?')) partials.push(partial);
    expect(partials.at(-1)).toEqual({ city: 'Kyiv' });
  });
});

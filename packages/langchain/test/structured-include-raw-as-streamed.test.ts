// withStructuredOutput({ includeRaw: true }) on a whole answer (invoke), on exact bytes: the raw
// message as a streamed answer gives it — a refusal its content once, a `tools`-served answer cut
// at the length limit finishing `length` (not `stop`), Mistral's `thinking` parts its reasoning.
import { emulate } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const Place = z.object({ city: z.string() });
type RawResult = { raw: AIMessage; parsed: unknown };
type Body = { model: string; tool_choice?: { function: { name: string } } };

/** `model` on the emulator, its chat completions answered with `message(body)` and `finish`. */
async function answering(model: string, message: (body: Body) => object, finish = 'stop') {
  const connection = intercepting(await emulate(), async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const body = (await request.json()) as Body;
    const choice = {
      index: 0,
      message: { role: 'assistant', ...message(body) },
      finish_reason: finish,
    };
    return Response.json({ id: 'a', object: 'chat.completion', model, choices: [choice] });
  });
  const chat = new GatewayChatModel(model, { ...connection, maxRetries: 0, maxTokens: 5 });
  return chat.withStructuredOutput(Place, { includeRaw: true });
}

describe('withStructuredOutput({ includeRaw: true }): the raw whole answer', () => {
  it('a refusal is its content once', async () => {
    const REFUSAL = "I can't help with that.";
    const structured = await answering('community/json-schema', () => ({
      content: null,
      refusal: REFUSAL,
    }));
    const { raw, parsed } = (await structured.invoke('Where?')) as RawResult;
    expect(parsed).toBeNull();
    expect(raw.content).toBe(REFUSAL);
  });

  it('a tools-served answer cut at the length limit finishes length', async () => {
    const CUT = '{"city":"Os';
    const structured = await answering(
      'community/tools',
      (body) => {
        const name = body.tool_choice?.function.name ?? '';
        const call = { id: 'c', type: 'function', function: { name, arguments: CUT } };
        return { content: null, tool_calls: [call] };
      },
      'length',
    );
    const { raw, parsed } = (await structured.invoke('Where?')) as RawResult;
    expect(parsed).toBeNull();
    expect(raw.content).toBe(CUT);
    expect(raw.response_metadata.finish_reason).toBe('length');
  });

  it("keeps Mistral's thinking parts as its reasoning", async () => {
    const thinking = [{ type: 'text', text: 'Oslo is the capital.' }];
    const content = [
      { type: 'thinking', thinking },
      { type: 'text', text: '{"city":"Oslo"}' },
    ];
    const structured = await answering('community/json-schema', () => ({ content }));
    const { raw, parsed } = (await structured.invoke('Where?')) as RawResult;
    expect(parsed).toEqual({ city: 'Oslo' });
    expect(raw.additional_kwargs.reasoning_content).toBe('Oslo is the capital.');
  });
});

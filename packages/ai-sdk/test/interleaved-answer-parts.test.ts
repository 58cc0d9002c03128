// A whole answer whose content interleaves reasoning and text (Mistral's `thinking` parts), or
// carries content and a `refusal`: generateText keeps each piece in order, its own part, as a
// stream gives them and as @ai-sdk/openai-compatible reads the same bytes.
import { generateText, Output } from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';

/** A fetch answering every chat request with `message` (choice 0, finishing `stop`). */
const answering = (message: object) =>
  answeringChats(() =>
    Response.json({
      id: 'g',
      object: 'chat.completion',
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
    }),
  );

/** The content parts generateText returns for `message`, as [type, text]. */
async function partsOf(message: object) {
  const result = await generateText({
    model: gateway({ fetch: answering(message) })(MODEL),
    prompt: 'x',
  });
  return result.content.map((part) => [part.type, 'text' in part ? part.text : undefined]);
}

describe('a whole answer keeps its pieces in order', () => {
  it("keeps Mistral's thinking parts between text parts", async () => {
    const thinking = (text: string) => ({ type: 'thinking', thinking: [{ type: 'text', text }] });
    const content = [
      thinking('T1'),
      { type: 'text', text: 'A1' },
      thinking('T2'),
      { type: 'text', text: 'A2' },
    ];
    expect(await partsOf({ content })).toEqual([
      ['reasoning', 'T1'],
      ['text', 'A1'],
      ['reasoning', 'T2'],
      ['text', 'A2'],
    ]);
  });

  it('gives content and a refusal a text part each', async () => {
    expect(await partsOf({ content: 'partial', refusal: 'I cannot' })).toEqual([
      ['text', 'partial'],
      ['text', 'I cannot'],
    ]);
  });

  it('puts reasoning_content first and joins parts of one kind', async () => {
    const content = [
      { type: 'text', text: 'A' },
      { type: 'text', text: 'B' },
    ];
    expect(await partsOf({ reasoning_content: 'R', content })).toEqual([
      ['reasoning', 'R'],
      ['text', 'AB'],
    ]);
  });

  it("keeps core's text when it differs from the message's (JSON out of a fence)", async () => {
    const result = await generateText({
      model: gateway({ fetch: answering({ content: '```json\n{"a":1}\n```' }) })(MODEL),
      prompt: 'x',
      output: Output.json(),
    });
    expect(result.output).toEqual({ a: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/index';
import { askingForAPlace, clientAnswering, RETURNED as returned } from './structured-place-asks';

// A structured call's whole (non-streamed) answer handed on as its stream gives it (§4.8): a
// refusal read once, a `tools` answer's finish kept unless it was `tool_calls`, Mistral's
// `thinking` parts kept as reasoning. The emulator serves the catalog (its `community/json-schema`
// serves a schema by `json_schema`, `community/tools` by a forced call); a stub sends the chat
// bytes the emulator does not.

const asking = (model: string) => askingForAPlace(model, { max_tokens: 5 });

/** The answer of `request`, whole and streamed. */
async function bothWays(client: Awaited<ReturnType<typeof clientAnswering>>, request: ChatRequest) {
  const whole = await client.chat(request, returned);
  const streamed = await (await client.chatStream(request, returned)).result();
  return { whole, streamed };
}

describe('a structured whole answer handed on as its stream gives it', () => {
  it('a refusal handed on unchecked is its text once, its finish content_filter', async () => {
    const REFUSAL = "I can't help with that.";
    const client = await clientAnswering(() => ({
      message: { content: null, refusal: REFUSAL },
      finish: 'stop',
    }));
    const { whole, streamed } = await bothWays(client, asking('community/json-schema'));
    expect(streamed.text).toBe(REFUSAL);
    expect(whole.answer.text).toBe(REFUSAL);
    expect(whole.answer.refusal).toBe(REFUSAL);
    expect(whole.answer.finishReason).toBe('content_filter');
    expect(whole.answer.sentFinishReason).toBe('stop');
    expect(whole.response.choices[0]!.message).toMatchObject({ refusal: REFUSAL });
  });

  it('a tools answer cut at the length limit keeps finish length; a finished call is stop', async () => {
    const CUT = '{"city":"Os';
    let finish = 'length';
    const client = await clientAnswering((body) => {
      const name = (body.tool_choice as { function: { name: string } }).function.name;
      const call = { index: 0, id: 'c', type: 'function', function: { name, arguments: CUT } };
      return { message: { content: null, tool_calls: [call] }, finish };
    });
    const cut = await bothWays(client, asking('community/tools'));
    expect(cut.streamed.finishReason).toBe('length');
    expect(cut.whole.answer.finishReason).toBe('length');
    expect(cut.whole.answer.text).toBe(CUT);
    finish = 'tool_calls';
    const called = await bothWays(client, asking('community/tools'));
    expect(called.whole.answer.finishReason).toBe('stop');
    expect(called.streamed.finishReason).toBe('stop');
  });

  it("Mistral's thinking parts stay the answer's reasoning", async () => {
    const thinking = [{ type: 'text', text: 'Oslo is the capital.' }];
    const content = [
      { type: 'thinking', thinking },
      { type: 'text', text: '{"city":"Oslo"}' },
    ];
    const client = await clientAnswering(() => ({ message: { content }, finish: 'stop' }));
    const whole = await client.chat(asking('community/json-schema'));
    expect(whole.structured?.value).toEqual({ city: 'Oslo' });
    expect(whole.answer.text).toBe('{"city":"Oslo"}');
    expect(whole.answer.reasoning).toBe('Oslo is the capital.');
  });
});

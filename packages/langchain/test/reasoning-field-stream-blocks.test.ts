// docs/gateway-protocol.md §5.4: reasoning sent in a field (`reasoning_content`) belongs before the
// text, as a whole answer reads it, whenever it arrives: a stream whose chunks each carry reasoning
// and text, or the emulator's reasoning model, gives one reasoning block and one text block on
// stream() as on invoke(). Only reasoning sent among content parts (Mistral's `thinking`) keeps a
// place of its own (interleaved-reasoning-blocks.test.ts).
import { emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { intercepting } from './helpers';

const MODEL = 'community/general';
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

async function joined(model: GatewayChatModel, prompt = 'hi'): Promise<AIMessageChunk | undefined> {
  let whole: AIMessageChunk | undefined;
  for await (const part of await model.stream(prompt)) whole = whole ? concat(whole, part) : part;
  return whole;
}

const kinds = (message: BaseMessage | undefined) =>
  message?.contentBlocks.map((block) => [block.type, block.reasoning ?? block.text]);

describe('reasoning in a field, streamed beside the text', () => {
  it('each chunk carrying both: one reasoning block, one text block, as invoke gives', async () => {
    const gateway = await emulate();
    const body = [
      chunk({ role: 'assistant', reasoning_content: 'r1 ', content: 't1 ' }),
      chunk({ reasoning_content: 'r2 ', content: 't2 ' }),
      chunk({ reasoning_content: 'r3', content: 't3' }),
      chunk({}, 'stop'),
      'data: [DONE]\n\n',
    ].join('');
    const connection = intercepting(gateway, async (request) =>
      request.method === 'POST'
        ? new Response(body, { headers: { 'content-type': 'text/event-stream' } })
        : undefined,
    );
    const whole = await joined(new GatewayChatModel(MODEL, connection));
    expect(kinds(whole)).toEqual([
      ['reasoning', 'r1 r2 r3'],
      ['text', 't1 t2 t3'],
    ]);
  });

  it("the emulator's reasoning model: stream() gives invoke()'s blocks", async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('community/reasoner', connection);
    const prompt = 'Tell me why the sky is blue';
    const invoked = await model.invoke(prompt);
    const streamed = await joined(model, prompt);
    expect(kinds(streamed)).toEqual(kinds(invoked));
    expect(kinds(invoked)?.map(([type]) => type)).toEqual(['reasoning', 'text']);
  });
});

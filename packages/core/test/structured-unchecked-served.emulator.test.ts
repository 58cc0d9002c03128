import { describe, expect, it } from 'vitest';
import { type ChatRequest, GatewayError } from '../src/index';
import { caught } from './helpers';
import { askingForAPlace, clientAnswering, RETURNED } from './structured-place-asks';

// docs/gateway-protocol.md §4.8: a forced call (`tools`) whose arguments fail the check keeps how
// it was served — the call as sent and the server's finish — for a caller that shows the model's
// own message: on an answer handed on unchecked (`structuredUnchecked`), and on the error.

/** Every chat answered by one call of the schema's tool with `{"city":5}`, finish `tool_calls`. */
const answering = () =>
  clientAnswering((body: ChatRequest) => ({
    message: {
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: body.tools![0]!.function.name, arguments: '{"city":5}' },
        },
      ],
    },
    finish: 'tool_calls',
  }));

const call = { id: 'call_1', name: 'place', arguments: '{"city":5}' };
const served = {
  method: 'tools',
  sentFinishReason: 'tool_calls',
  toolCall: call,
  // (Every call the server sent: here the forced one alone.)
  sentToolCalls: [call],
};

describe('a forced call that fails the check: how it was served', () => {
  it('whole, handed on unchecked: structuredUnchecked, the answer finishing stop', async () => {
    const client = await answering();
    const result = await client.chat(askingForAPlace('community/tools'), RETURNED);
    expect(result.structured).toBeUndefined();
    expect(result.structuredUnchecked).toEqual(served);
    expect(result.answer.structuredUnchecked).toEqual(served);
    expect(result.answer).toMatchObject({ text: '{"city":5}', finishReason: 'stop' });
    expect(result.answer.sentFinishReason).toBe('tool_calls');
  });

  it('streamed, handed on unchecked: the assembled answer says the same', async () => {
    const client = await answering();
    const stream = await client.chatStream(askingForAPlace('community/tools'), RETURNED);
    const answer = await stream.result();
    expect(answer.structuredUnchecked).toEqual(served);
    expect(answer.sentFinishReason).toBe('tool_calls');
  });

  it('refused (the default): invalidOutput keeps the finish and the call as sent', async () => {
    const client = await answering();
    const error = await caught(() => client.chat(askingForAPlace('community/tools')));
    expect(error).toBeInstanceOf(GatewayError);
    const { invalidOutput } = error as GatewayError;
    expect(invalidOutput).toMatchObject({ reason: 'schema', text: '{"city":5}' });
    expect(invalidOutput).toMatchObject({
      sentFinishReason: served.sentFinishReason,
      toolCall: served.toolCall,
    });
  });
});

import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../src/index';
import { askingForAPlace, RETURNED } from './structured-place-asks';

// docs/gateway-protocol.md §4.8. With `n` > 1 each choice is checked; a later choice that passes
// carries its own `structured` on its entry of `choices` (its checked value, the forced call,
// every call and the finish the server sent in it), as choice 0's `structured` does: a passing
// choice never carries less than a failing one handed on unchecked.

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

/** A client whose whole chat answers have two choices: the forced call with `args`, then `lookup`. */
async function answering(args: readonly string[]) {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, (body) => {
    const name = (body as unknown as ChatRequest).tools![0]!.function.name;
    const choices = args.map((text, index) => ({
      index,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [call(`c${index}`, name, text), call(`x${index}`, 'lookup', '{"q":1}')],
      },
      finish_reason: 'tool_calls',
    }));
    return Response.json({ id: 'r1', object: 'chat.completion', model: body.model, choices });
  });
  return createGatewayClient({ ...connection, circuitBreaker: false, fetch });
}

const served = (index: number, args: string) => ({
  method: 'tools',
  toolCall: { id: `c${index}`, name: 'place', arguments: args },
  sentToolCalls: [
    { id: `c${index}`, name: 'place', arguments: args },
    { id: `x${index}`, name: 'lookup', arguments: '{"q":1}' },
  ],
  sentFinishReason: 'tool_calls',
});

describe('n > 1: a later choice that passes its check carries its own structured result', () => {
  it.each([
    ['checked', undefined],
    ["lastAnswer 'returned'", RETURNED],
  ])('%s: choice 1 has its value, forced call, every call and finish as sent', async (_, opts) => {
    const client = await answering(['{"city":"Oslo"}', '{"city":"Rome"}']);
    const result = await client.chat(askingForAPlace('community/tools', { n: 2 }), opts);
    expect(result.structured).toEqual({ value: { city: 'Oslo' }, ...served(0, '{"city":"Oslo"}') });
    const [zero, one] = result.choices!;
    expect(zero!.structured).toEqual(result.structured);
    expect(one!.structured).toEqual({ value: { city: 'Rome' }, ...served(1, '{"city":"Rome"}') });
    expect(one!.structuredUnchecked).toBeUndefined();
    expect(one!.text).toBe('{"city":"Rome"}');
    expect(one!.toolCalls).toEqual([]);
    expect(one!.finishReason).toBe('stop');
    expect(one!.sentFinishReason).toBe('tool_calls');
  });

  it('choice 0 handed on unchecked, choice 1 passing: each its own', async () => {
    const client = await answering(['{"city":5}', '{"city":"Rome"}']);
    const result = await client.chat(askingForAPlace('community/tools', { n: 2 }), RETURNED);
    expect(result.structured).toBeUndefined();
    expect(result.choices?.[0]?.structuredUnchecked).toEqual(served(0, '{"city":5}'));
    expect(result.choices?.[1]?.structured?.value).toEqual({ city: 'Rome' });
    expect(result.choices?.[1]?.structured?.sentToolCalls?.map((sent) => sent.id)).toEqual([
      'c1',
      'x1',
    ]);
  });
});

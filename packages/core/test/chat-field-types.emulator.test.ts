// docs/gateway-protocol.md §4.1: the chat fields the spec types (gateway API §2.4, §2.5) are sent
// only with those types; another is refused before anything is sent, naming the field and the value.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/index';
import { clientOn, hi } from './helpers';

const user = { role: 'user' as const, content: 'hi' };

describe('chat fields of the wrong type are refused, not sent', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ['max_tokens 1.5', { max_tokens: 1.5 }, 'max_tokens', 'must be an integer, got number 1.5'],
    ['seed 1.5', { seed: 1.5 }, 'seed', 'must be an integer, got number 1.5'],
    ['temperature "1"', { temperature: '1' }, 'temperature', 'must be a number, got "1"'],
    ['top_p "x"', { top_p: 'x' }, 'top_p', 'must be a number, got "x"'],
    ['stop 5', { stop: 5 }, 'stop', 'must be a string or an array of strings, got number 5'],
    ['stop ["a", 5]', { stop: ['a', 5] }, 'stop[1]', 'must be a string, got number 5'],
    [
      'tool_calls "x"',
      { messages: [user, { role: 'assistant', content: null, tool_calls: 'x' }] },
      'messages[1].tool_calls',
      'must be an array of tool calls, got "x"',
    ],
    [
      'tool_calls [1]',
      { messages: [user, { role: 'assistant', content: null, tool_calls: [1] }] },
      'messages[1].tool_calls[0]',
      'must be an object, got number 1',
    ],
    [
      'tool_call_id 5',
      { messages: [user, { role: 'tool', content: 'r', tool_call_id: 5 }] },
      'messages[1].tool_call_id',
      'must be a string, got number 5',
    ],
  ])('%s', async (_, fields, field, words) => {
    const gateway = await emulate();
    const request = { ...hi(), ...fields } as ChatRequest;
    const error = await caught(clientOn(gateway).chat(request));
    expect(error).toMatchObject({ code: 'invalid_request_error', field });
    expect((error as Error).message).toContain(words);
    expect(gateway.emulator.counters.requests.chat).toBe(0);
  });

  it('what the spec allows is sent: integers, numbers, a stop string or list, an echoed null tool_calls', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const sampling = { temperature: 0, top_p: 1, max_tokens: 50, seed: 0 };
    const history = [user, { role: 'assistant' as const, content: 'ok', tool_calls: null }, user];
    await client.chat({ ...hi(), ...sampling, stop: 'never' });
    await client.chat({ ...hi(), stop: ['never', 'nor this'] } as ChatRequest);
    await client.chat({ ...hi(), messages: history } as ChatRequest);
    expect(gateway.emulator.counters.requests.chat).toBe(3);
  });
});

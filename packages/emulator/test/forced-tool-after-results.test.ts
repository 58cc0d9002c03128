/**
 * A forced `tool_choice` after tool results still calls a tool (a real model must): the one an
 * agent's structured-response step forces after its own tools ran. And a misspelt fault rule's
 * `fault` is named as the typo it is.
 */
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { chat, type Json } from './helpers';

const tool = (name: string) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties: { city: { type: 'string' } } } },
});
const TOOLS = [tool('get_weather'), tool('Reply')];

/** A conversation in which `get_weather` was called and answered. */
const AFTER_WEATHER = [
  { role: 'user', content: 'get_weather for "Paris"' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
];

async function answer(body: Record<string, unknown>): Promise<Json> {
  const response = await chat(createEmulator(), body);
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

describe('a forced tool_choice after tool results', () => {
  it.each([
    ['required', 'required'],
    ['a named function', { type: 'function', function: { name: 'Reply' } }],
  ])('%s calls a tool not called yet', async (_name, toolChoice) => {
    const body = await answer({
      model: 'community/tools',
      messages: AFTER_WEATHER,
      tools: TOOLS,
      tool_choice: toolChoice,
    });
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.tool_calls[0].function.name).toBe('Reply');
  });

  it('answers from the results when every forced tool was called (a forcing loop ends)', async () => {
    const body = await answer({
      model: 'community/tools',
      messages: AFTER_WEATHER,
      tools: [tool('get_weather')],
      tool_choice: 'required',
    });
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.choices[0].message.content).toBe('Tool get_weather returned: sunny');
  });

  it('auto answers from the results, as before', async () => {
    const body = await answer({ model: 'community/tools', messages: AFTER_WEATHER, tools: TOOLS });
    expect(body.choices[0].message.content).toBe('Tool get_weather returned: sunny');
  });
});

describe('a fault rule with a misspelt fault', () => {
  it('names the misspelt key and the closest known one', () => {
    const emulator = createEmulator();
    const typo = { fualt: 'bad_gateway' } as unknown as Parameters<typeof emulator.injectFault>[0];
    expect(() => emulator.injectFault(typo)).toThrow(/unknown field fualt — did you mean fault\b/);
  });
});

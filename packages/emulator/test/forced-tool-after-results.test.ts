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
/** The user's tools, then an agent's own answer tool (createAgent appends it last). */
const TOOLS = [tool('get_weather'), tool('send_email'), tool('Reply')];

/** A turn in which `name` was called and answered. */
function calledAndAnswered(name: string, id: string) {
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: id, content: 'sunny' },
  ];
}
const ASK = { role: 'user', content: 'get_weather for "Paris"' };
const AFTER_WEATHER = [ASK, ...calledAndAnswered('get_weather', 'c1')];

async function calledTool(messages: unknown[], toolChoice: unknown, tools = TOOLS) {
  const response = await chat(createEmulator(), {
    model: 'community/tools',
    messages,
    tools,
    tool_choice: toolChoice,
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as Json;
  return body.choices[0].message.tool_calls?.[0]?.function.name as string | undefined;
}

describe('a forced tool_choice after tool results', () => {
  it.each([
    ['required', 'required'],
    ['a named function', { type: 'function', function: { name: 'Reply' } }],
  ])(
    '%s calls the last forced tool not called this turn, not one the user never asked for',
    async (_name, toolChoice) => {
      expect(await calledTool(AFTER_WEATHER, toolChoice)).toBe('Reply');
    },
  );

  it('counts the calls since the last user message: a second turn gets its answer tool again', async () => {
    const secondTurn = [
      ...AFTER_WEATHER,
      ...calledAndAnswered('Reply', 'c2'),
      { role: 'user', content: 'get_weather for "Lviv"' },
      ...calledAndAnswered('get_weather', 'c3'),
    ];
    expect(await calledTool(secondTurn, 'required')).toBe('Reply');
  });

  it('calls the last one again when every forced tool was called this turn (the loop ends it)', async () => {
    const onlyWeather = [tool('get_weather')];
    expect(await calledTool(AFTER_WEATHER, 'required', onlyWeather)).toBe('get_weather');
  });

  it('auto answers from the results, as before', async () => {
    const response = await chat(createEmulator(), {
      model: 'community/tools',
      messages: AFTER_WEATHER,
      tools: TOOLS,
    });
    const body = (await response.json()) as Json;
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

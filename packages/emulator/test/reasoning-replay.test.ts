import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { chat, type Json, parseSse, toolLoop, userChat, WEATHER_TOOL } from './helpers';

const MODEL = 'community/general';
const ASK = 'call get_weather for "Rome"';
const REASONING = 'The user wrote 4 words. I answer by echoing them.';
const DEEPSEEK_400 = {
  error: {
    message: 'The `reasoning_content` in the thinking mode must be passed back to the API.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_request_error',
  },
};
const emulator = (dialect: 'deepseek-thinking' | 'deepseek' = 'deepseek-thinking') =>
  createEmulator({ models: { [MODEL]: { dialect } } });
const { firstAnswer, secondRequest } = toolLoop(MODEL, ASK);

describe('deepseek-thinking dialect: reasoning of tool-call turns must come back', () => {
  it('answers with reasoning_content and the tool call, whole and streamed', async () => {
    const message = await firstAnswer(emulator());
    expect(message.reasoning_content).toBe(REASONING);
    expect(message.tool_calls[0].function.name).toBe('get_weather');
    const response = await chat(
      emulator(),
      userChat(MODEL, ASK, { tools: [WEATHER_TOOL], stream: true }),
    );
    const events = (parseSse(await response.text()) as Json[]).filter((e) => e !== '[DONE]');
    const deltas = events.map((e) => e.choices[0]?.delta ?? {});
    expect(deltas.map((d: Json) => d.reasoning_content ?? '').join('')).toBe(REASONING);
    expect(deltas.some((d: Json) => d.tool_calls !== undefined)).toBe(true);
  });

  it("a tool-call turn replayed without reasoning_content is refused with DeepSeek's 400", async () => {
    const target = emulator();
    const { reasoning_content: _dropped, ...bare } = await firstAnswer(target);
    for (const stream of [false, true]) {
      const response = await chat(target, secondRequest(bare, stream));
      expect(response.status).toBe(400);
      expect(response.headers.get('x-service-model')).toBe(MODEL);
      expect(await response.json()).toEqual(DEEPSEEK_400);
    }
    // Any turn of the history, not only the current one.
    const later = secondRequest(bare);
    later.messages.push({ role: 'user', content: 'thanks' });
    expect((await chat(target, later)).status).toBe(400);
  });

  it("with it the loop goes on; a turn without tool calls needn't carry its reasoning", async () => {
    const target = emulator();
    const response = await chat(target, secondRequest(await firstAnswer(target)));
    expect(response.status).toBe(200);
    expect(((await response.json()) as Json).choices[0].message.content).toMatch(/sunny/);
    const plain = {
      model: MODEL,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Echo: hi' },
        { role: 'user', content: 'again' },
      ],
    };
    expect((await chat(target, plain)).status).toBe(200);
  });

  it('the deepseek dialect does not check', async () => {
    const target = emulator('deepseek');
    const { reasoning_content: _dropped, ...bare } = await firstAnswer(target);
    expect((await chat(target, secondRequest(bare))).status).toBe(200);
  });
});

describe('groq dialect: reasoning_content sent back is refused', () => {
  const GROQ = 'dialect/groq';
  const groq = () =>
    createEmulator({
      models: { [GROQ]: { capabilities: ['chat', 'streaming', 'tools'], dialect: 'groq' } },
    });
  const loop = toolLoop(GROQ, ASK);
  const groq400 = (at: number) => ({
    error: {
      message: `'messages.${at}' : for 'role:assistant' the following must be satisfied[('messages.${at}' : property 'reasoning_content' is unsupported)]`,
      type: 'invalid_request_error',
    },
  });

  it("an assistant message carrying reasoning_content gets Groq's 400, naming the message", async () => {
    const target = groq();
    const { reasoning, ...call } = await loop.firstAnswer(target);
    expect(reasoning).toBe(REASONING);
    for (const stream of [false, true]) {
      const response = await chat(
        target,
        loop.secondRequest({ ...call, reasoning_content: reasoning }, stream),
      );
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('x-service-model')).toBe(GROQ);
      expect(await response.json()).toEqual(groq400(1));
    }
    // Any assistant turn, with or without tool calls: the first one is named.
    const plain = {
      model: GROQ,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Echo: hi', reasoning_content: 'thoughts' },
        { role: 'user', content: 'again' },
      ],
    };
    const response = await chat(target, plain);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(groq400(2));
  });

  it('without it the loop goes on, and other dialects take it', async () => {
    const target = groq();
    const { reasoning: _dropped, ...call } = await loop.firstAnswer(target);
    const response = await chat(target, loop.secondRequest(call));
    expect(response.status).toBe(200);
    expect(((await response.json()) as Json).choices[0].message.content).toMatch(/sunny/);
    const deepseek = emulator('deepseek');
    const sent = await firstAnswer(deepseek);
    expect((await chat(deepseek, secondRequest(sent))).status).toBe(200);
  });
});

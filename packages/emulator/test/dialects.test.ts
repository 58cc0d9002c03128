import { describe, expect, it } from 'vitest';
import { CHAT_DIALECTS, createEmulator } from '../src/index';
import { chat, type Json, parseSse, userChat } from './helpers';

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

const emulatorWith = (dialect: string) =>
  createEmulator({ models: { 'community/general': { dialect } } as never });

async function streamed(dialect: string, text: string, extra: Record<string, unknown> = {}) {
  const response = await chat(
    emulatorWith(dialect),
    userChat('community/general', text, {
      stream: true,
      stream_options: { include_usage: true },
      ...extra,
    }),
  );
  return (parseSse(await response.text()) as Json[]).filter((e) => e !== '[DONE]');
}

async function whole(dialect: string, text: string) {
  const response = await chat(emulatorWith(dialect), userChat('community/general', text));
  return (await response.json()) as Json;
}

describe('chat dialects', () => {
  it('every dialect ends with a finish_reason on the last chunk before [DONE] or a usage-only chunk after it', async () => {
    for (const dialect of CHAT_DIALECTS) {
      const events = await streamed(dialect, 'hi');
      const last = events.at(-1);
      if (['openai', 'azure', 'xai'].includes(dialect)) {
        expect(last.choices, dialect).toEqual([]);
        expect(last.usage.total_tokens, dialect).toBeGreaterThan(0);
        expect(events.at(-2).choices[0].finish_reason, dialect).toBe('stop');
      } else {
        expect(last.choices[0].finish_reason, dialect).toBe('stop');
        expect(last.usage.total_tokens, dialect).toBeGreaterThan(0);
      }
    }
  });

  it('deepseek: reasoning_content deltas before the content; reasoning and cached token counts', async () => {
    const events = await streamed('deepseek', 'hi there');
    const reasoning = events.flatMap((e) => e.choices[0]?.delta?.reasoning_content ?? []).join('');
    expect(reasoning).toBe('The user wrote 2 words. I answer by echoing them.');
    const firstContent = events.findIndex((e) => e.choices[0]?.delta?.content);
    const lastReasoning = events.findLastIndex((e) => e.choices[0]?.delta?.reasoning_content);
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(events.at(-1).usage.completion_tokens_details.reasoning_tokens).toBe(10);
    expect(events.at(-1).usage.prompt_tokens_details.cached_tokens).toBe(1);
    const body = await whole('deepseek', 'hi there');
    expect(body.choices[0].message).toMatchObject({
      content: 'Echo: hi there',
      reasoning_content: 'The user wrote 2 words. I answer by echoing them.',
    });
  });

  it('groq: delta.reasoning and x_groq on every chunk', async () => {
    const events = await streamed('groq', 'hi');
    expect(events.some((e) => typeof e.choices[0]?.delta?.reasoning === 'string')).toBe(true);
    expect(events.every((e) => e.x_groq?.id === 'req_emu')).toBe(true);
    expect((await whole('groq', 'hi')).choices[0].message.reasoning).toMatch(/^The user wrote/);
  });

  it('mistral: thinking parts and text parts as content arrays', async () => {
    const events = await streamed('mistral', 'hi');
    const contents = events.flatMap((e) => e.choices[0]?.delta?.content ?? []);
    expect(contents[0]).toEqual({
      type: 'thinking',
      thinking: [{ type: 'text', text: 'The ' }],
    });
    expect(contents.at(-1)).toEqual({ type: 'text', text: 'hi' });
    const message = (await whole('mistral', 'hi')).choices[0].message;
    expect(message.content.map((part: Json) => part.type)).toEqual(['thinking', 'text']);
  });

  it('azure: a first content-filter chunk with choices [] and empty id/model', async () => {
    const events = await streamed('azure', 'hi');
    expect(events[0]).toMatchObject({ id: '', model: '', created: 0, choices: [] });
    expect(events[0].prompt_filter_results).toHaveLength(1);
  });

  it('minimal: no role chunk, each tool call whole without index, usage inside the finish chunk', async () => {
    const events = await streamed('minimal', 'get_weather for "Rome"', { tools: [weatherTool] });
    expect(events.some((e) => e.choices[0]?.delta?.role)).toBe(false);
    const pieces = events.flatMap((e) => e.choices[0]?.delta?.tool_calls ?? []);
    expect(pieces).toHaveLength(1);
    expect(pieces[0].index).toBeUndefined();
    expect(pieces[0]).toMatchObject({ function: { name: 'get_weather' } });
    expect(JSON.parse(pieces[0].function.arguments)).toEqual({ city: 'Rome' });
  });

  it('xai: reasoning_content, and usage counting the reasoning outside completion_tokens', async () => {
    const events = await streamed('xai', 'hi there');
    const reasoning = events.flatMap((e) => e.choices[0]?.delta?.reasoning_content ?? []).join('');
    expect(reasoning).toBe('The user wrote 2 words. I answer by echoing them.');
    // 'Echo: hi there' is 3 words, the reasoning 10: outside completion_tokens, in total_tokens.
    const last = events.at(-1);
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 15 });
    expect(last.usage.completion_tokens_details).toEqual({ reasoning_tokens: 10 });
    expect(last.usage.prompt_tokens_details).toEqual({ cached_tokens: 1 });
    expect((await whole('xai', 'hi there')).usage).toEqual(last.usage);
  });

  it('no dialect sends usage in a stream that did not ask for it', async () => {
    for (const dialect of CHAT_DIALECTS) {
      const response = await chat(
        emulatorWith(dialect),
        userChat('community/general', 'hi', { stream: true }),
      );
      const events = (parseSse(await response.text()) as Json[]).filter((e) => e !== '[DONE]');
      expect(
        events.some((e) => e.usage !== undefined),
        dialect,
      ).toBe(false);
      expect(events.at(-1).choices[0].finish_reason, dialect).toBe('stop');
    }
  });

  it('refuses an unknown dialect in the scenario', () => {
    expect(() => emulatorWith('klingon')).toThrow(/dialect/);
  });

  it('the default scenario has a reasoning model (community/reasoner, deepseek dialect)', async () => {
    const response = await chat(createEmulator(), userChat('community/reasoner', 'hi'));
    expect(((await response.json()) as Json).choices[0].message.reasoning_content).toBeTruthy();
  });
});

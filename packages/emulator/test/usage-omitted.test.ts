import { describe, expect, it } from 'vitest';
import { CHAT_DIALECTS, createEmulator, ScenarioError } from '../src/index';
import { chat, type Json, parseSse, userChat } from './helpers';

// The spec's usage is "present when the model server reports it" (§2.6): a model scripted with
// `usage: 'omitted'` stands for a server that never reports it, in every dialect, so a client's
// no-usage path can be tested.

const omitting = (dialect: (typeof CHAT_DIALECTS)[number]) =>
  createEmulator({ models: { 'community/general': { dialect, usage: 'omitted' } } });

describe("a model with usage: 'omitted'", () => {
  it.each(CHAT_DIALECTS)('answers without usage, whole (%s)', async (dialect) => {
    const response = await chat(omitting(dialect), userChat('community/general', 'hi there'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.choices[0].finish_reason).toBe('stop');
    expect('usage' in body).toBe(false);
  });

  it.each(CHAT_DIALECTS)(
    'streams without usage though include_usage asks for it (%s)',
    async (dialect) => {
      const response = await chat(
        omitting(dialect),
        userChat('community/general', 'hi there', {
          stream: true,
          stream_options: { include_usage: true },
        }),
      );
      const events = parseSse(await response.text()) as (Json | string)[];
      expect(events.at(-1)).toBe('[DONE]');
      const chunks = events.filter((event): event is Json => event !== '[DONE]');
      expect(chunks.some((chunk) => chunk.choices?.[0]?.finish_reason === 'stop')).toBe(true);
      expect(chunks.filter((chunk) => 'usage' in chunk)).toEqual([]);
    },
  );

  it('reports usage as before without it, and refuses an unknown value', async () => {
    const response = await chat(createEmulator(), userChat('community/general', 'hi there'));
    expect(((await response.json()) as Json).usage.total_tokens).toBeGreaterThan(0);
    expect(() =>
      createEmulator({ models: { 'community/general': { usage: 'none' as never } } }),
    ).toThrow(ScenarioError);
  });
});

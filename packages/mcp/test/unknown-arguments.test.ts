/**
 * An unknown tool argument is refused before any request, naming it and the closest known one
 * (core's one "did you mean" search), through the MCP SDK's own client: a model that wrote core's
 * option name (`fallbackModels`) learns the tool's (`fallback_models`) from the refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
}, 120_000);
afterAll(async () => {
  await harness.close();
});

describe('an unknown tool argument', () => {
  it('is refused naming it and the closest known argument', async () => {
    const client = await harness.connect();
    const result = await client.callTool({
      name: 'ask_model',
      arguments: { model: 'community/general', prompt: 'hi', fallbackModels: ['community/tools'] },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'unknown argument `fallbackModels` — did you mean `fallback_models`?',
    );
    expect(harness.gateway.emulator.counters.requests.chat ?? 0).toBe(0);
  });

  it('with no close match, lists the tool’s arguments once', async () => {
    const client = await harness.connect();
    const result = await client.callTool({
      name: 'translate',
      arguments: {
        text: 'hi',
        target_language: 'de',
        tone: 'formal',
        zzz: 1,
        targetLanguage: 'de',
      },
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('unknown argument `targetLanguage` — did you mean `target_language`?');
    expect(text).toContain(
      'unknown arguments `tone`, `zzz` (the arguments are text, target_language, source_language)',
    );
    expect(harness.gateway.emulator.counters.requests.translations ?? 0).toBe(0);
  });

  it('is quoted as core quotes names: cut at 60 characters, control characters escaped', async () => {
    const client = await harness.connect();
    const name = `${'k'.repeat(200)}\u001b[31mRED\u001b[0m\nnext line`;
    const result = await client.callTool({
      name: 'translate',
      arguments: { text: 'hi', target_language: 'de', [name]: 1 },
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain(
      `unknown argument \`${'k'.repeat(60)}…\` (the arguments are text, target_language, source_language)`,
    );
    expect(text).not.toContain('k'.repeat(61));
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\n');
  });

  it('names at most five unknown arguments and counts the rest', async () => {
    const client = await harness.connect();
    const extra = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`zz${i}`, i]));
    const result = await client.callTool({
      name: 'translate',
      arguments: { text: 'hi', target_language: 'de', ...extra },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'unknown arguments `zz0`, `zz1`, `zz2`, `zz3`, `zz4` and 295 more (the arguments are text, target_language, source_language)',
    );
    expect(textOf(result).length).toBeLessThan(400);
  });

  it('escapes a control character in a name with a close match', async () => {
    const client = await harness.connect();
    const result = await client.callTool({
      name: 'translate',
      arguments: { text: 'hi', target_language: 'de', 'source_languag\r': 'en', '\u001b[2J': 1 },
    });
    expect(textOf(result)).toContain(
      'unknown argument `source_languag\\r` — did you mean `source_language`?',
    );
    expect(textOf(result)).toContain('unknown argument `\\u001b[2J` (the arguments are');
    expect(textOf(result)).not.toContain('\u001b');
  });

  it.each([
    ['list_models', { capabilty: 'chat' }, 'capability'],
    ['embed', { texts: ['a'], engin: 'e5' }, 'engine'],
    ['similarity', { query: 'a', texts: ['b'], topK: 1 }, 'top_k'],
    ['ocr', { image_base: 'aGk=' }, 'image_base64'],
    ['transcribe', { audio_base64: 'aGk=', languag: 'en' }, 'language'],
  ])('is refused by %s too', async (name, args, closest) => {
    const client = await harness.connect();
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(new RegExp(`did you mean \`${closest}\`\\?`));
  });
});

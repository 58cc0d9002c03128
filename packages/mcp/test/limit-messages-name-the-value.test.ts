/**
 * One message per limit, core's, naming the value or its size and the limit (rv-svc F6): a
 * similarity `query` over 65 536 bytes is refused by its size in bytes whether it is ASCII or not
 * (the schema bounded characters, with zod's words), and a `target_language` that is no language
 * code is quoted in the refusal, as the translation call words it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { connectedHarnessOfFile, textOf } from './harness';

const { harness, client } = connectedHarnessOfFile();
beforeEach(() => harness().gateway.reset());

describe('limit messages', () => {
  it.each([
    ['ASCII', 'q'.repeat(65_537), 65_537],
    ['two bytes a character', 'я'.repeat(40_000), 80_000],
  ])(
    'a similarity query over 65 536 bytes (%s): its size and the limit',
    async (_, query, bytes) => {
      const result = await client().callTool({
        name: 'similarity',
        arguments: { query, texts: ['a'], engine: 'all-minilm-l6-v2' },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(
        `query: is ${bytes} bytes in UTF-8; a text may have at most 65536 bytes`,
      );
      expect(harness().gateway.emulator.counters.requests.embeddings).toBe(0);
    },
  );

  it('a target_language that is no language code is quoted', async () => {
    for (const [field, args] of [
      ['target_language', { text: 'hi', target_language: 'english' }],
      ['source_language', { text: 'hi', target_language: 'uk', source_language: 'english' }],
    ] as const) {
      const result = await client().callTool({ name: 'translate', arguments: args });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`${field}: "english" is not a language code matching`);
    }
    expect(harness().gateway.emulator.counters.requests.translations).toBe(0);
  });
});

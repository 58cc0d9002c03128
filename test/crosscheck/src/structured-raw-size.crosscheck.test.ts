/**
 * `withStructuredOutput(schema, { method: 'functionCalling', includeRaw: true })`'s `raw`, for a
 * forced call with a big argument: serialized, it is `ChatOpenAI`'s raw for the same bytes (each
 * call's arguments in `tool_calls` and in `additional_kwargs.tool_calls`) plus one deliberate copy,
 * its content (ours is the JSON, as a streamed raw's; `ChatOpenAI`'s the server's `null`, ''), not
 * three times it: no copies in the converter's own kwargs.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  chatOpenAIOn,
  forcedToolCalls,
  gatewayChatModelOn,
  type RawResult,
  structuredOf,
} from './answering';

const BASE_URL = 'https://raw-size.test/v1';
const Big = z.object({ city: z.string() }).passthrough();

describe("includeRaw: raw's size is ChatOpenAI's for the same bytes", () => {
  it('a 200 kB argument: JSON.stringify(raw) within 1.1x of ChatOpenAI beside its content', async () => {
    const pad = 'y'.repeat(200_000);
    const fetch = forcedToolCalls(JSON.stringify({ city: 'Oslo', pad }));
    const config = { method: 'functionCalling', includeRaw: true, name: 'place' };
    const serialized = async (model: { withStructuredOutput: unknown }) => {
      const result: RawResult = await structuredOf(model, Big, config).invoke('Where?');
      expect(result.parsed).toEqual({ city: 'Oslo', pad });
      const content = result.raw.content as string;
      return { size: JSON.stringify(result.raw).length, content, raw: result.raw };
    };
    const theirs = await serialized(chatOpenAIOn(BASE_URL, fetch));
    const ours = await serialized(gatewayChatModelOn(BASE_URL, fetch, { maxRetries: 0 }));
    const copies = (raw: unknown) => JSON.stringify(raw).split(pad).length - 1;
    expect(theirs.content).toBe('');
    expect(copies(theirs.raw)).toBe(2);
    // (Ours: the two lists, and the content, the JSON itself.)
    expect(ours.content).toBe(JSON.stringify({ city: 'Oslo', pad }));
    expect(copies(ours.raw)).toBe(3);
    expect(copies(ours.raw.additional_kwargs)).toBe(1);
    expect(ours.size - JSON.stringify(ours.content).length).toBeLessThanOrEqual(theirs.size * 1.1);
  });
});

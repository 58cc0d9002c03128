// `withStructuredOutput(schema, { includeRaw: true })`'s raw message keeps what `ChatOpenAI`'s raw
// has: every call the server sent (`tool_calls`, OpenAI's raw form in `additional_kwargs.tool_calls`)
// and the finish as sent, and none of the converter's own kwargs (the checked value, the forced
// call, every call, the finish): a big argument three times (the two lists and the JSON content,
// which is ours by design), not six.
import { chatsAnsweredBy, emulate, oneMessageAnswer } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';

const Place = z.object({ city: z.string() }).passthrough();

/** `community/tools` answering by the forced call with `args` beside `content`. */
async function modelAnswering(args: string, content: string | null) {
  const gateway = await emulate();
  const fetch = chatsAnsweredBy(gateway.connection, (body) => {
    const name = (body.tools as { function: { name: string } }[])[0]!.function.name;
    const call = { id: 'c1', type: 'function', function: { name, arguments: args } };
    return oneMessageAnswer(body.model, { content, tool_calls: [call] }, 'tool_calls', false);
  });
  return new GatewayChatModel('community/tools', { ...gateway.connection, fetch, maxRetries: 0 });
}

const INTERNAL = ['parsed', 'structured_tool_call', 'sent_tool_calls', 'sent_finish_reason'];

describe("includeRaw: raw's additional_kwargs hold none of the converter's own", () => {
  it('a big argument: in tool_calls, its raw form and the content, no more', async () => {
    const pad = 'y'.repeat(50_000);
    const model = await modelAnswering(JSON.stringify({ city: 'Oslo', pad }), null);
    const structured = model.withStructuredOutput(Place, { includeRaw: true, name: 'place' });
    const { raw, parsed } = (await structured.invoke('Where?')) as {
      raw: AIMessage;
      parsed: unknown;
    };
    expect(parsed).toEqual({ city: 'Oslo', pad });
    for (const key of INTERNAL) expect(raw.additional_kwargs).not.toHaveProperty(key);
    expect(Object.keys(raw.additional_kwargs)).toEqual(['tool_calls']);
    expect(raw.response_metadata.finish_reason).toBe('tool_calls');
    expect(raw.tool_calls?.map((call) => call.id)).toEqual(['c1']);
    expect(JSON.stringify(raw).split(pad).length - 1).toBe(3);
  });
});

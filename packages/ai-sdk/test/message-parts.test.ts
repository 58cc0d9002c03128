// What we send for message parts (docs/gateway-protocol.md §4.1), as @ai-sdk/openai-compatible
// sends them: through `generateText` and `streamText` against the emulator, the request body read
// from the call's own `request.body`.

import type { ModelMessage } from 'ai';
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulated, gateway } = await providersOnMsw();

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const MP4 = new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32]);

/** The `messages` of the chat request `generateText` sent for `messages`. */
async function sentMessages(messages: ModelMessage[]): Promise<Record<string, unknown>[]> {
  const result = await generateText({
    model: gateway()('community/general'),
    messages,
    maxRetries: 0,
    include: { requestBody: true },
  });
  return (result.request.body as { messages: Record<string, unknown>[] }).messages;
}

describe('message parts through the AI SDK, as openai-compatible sends them', () => {
  it("keeps a part's providerOptions.infergate on the part (an image's detail on image_url), so text alone stays parts", async () => {
    const mark = { cache_control: { type: 'ephemeral' } };
    const [marked, image] = await sentMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'long context', providerOptions: { infergate: mark } },
          { type: 'text', text: 'question' },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'file',
            mediaType: 'image/png',
            data: PNG,
            providerOptions: { infergate: { detail: 'low', tag: 'x' } },
          },
        ],
      },
    ]);
    expect(marked?.content).toEqual([
      { type: 'text', text: 'long context', ...mark },
      { type: 'text', text: 'question' },
    ]);
    expect(image?.content).toEqual([
      {
        type: 'image_url',
        image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' },
        tag: 'x',
      },
    ]);
  });

  it('sends a file given by provider reference as a file_id part', async () => {
    const [user] = await sentMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'summarise' },
          {
            type: 'file',
            mediaType: 'application/pdf',
            data: { type: 'reference', reference: { infergate: 'file-abc' } },
          },
        ],
      },
    ]);
    expect(user?.content).toEqual([
      { type: 'text', text: 'summarise' },
      { type: 'file', file: { file_id: 'file-abc' } },
    ]);
  });

  it('refuses a provider reference without an infergate id, saying how to give one, before sending', async () => {
    await expect(
      sentMessages([
        {
          role: 'user',
          content: [
            {
              type: 'file',
              mediaType: 'application/pdf',
              data: { type: 'reference', reference: { openai: 'file-abc' } },
            },
          ],
        },
      ]),
    ).rejects.toThrow(/a provider reference keyed "infergate"/);
    expect(emulated.emulator.counters.requests.chat ?? 0).toBe(0);
  });

  it('sends a video as a video_url part, its data as a data URL', async () => {
    const [user] = await sentMessages([
      { role: 'user', content: [{ type: 'file', mediaType: 'video/mp4', data: MP4 }] },
    ]);
    expect(user?.content).toEqual([
      {
        type: 'video_url',
        video_url: { url: `data:video/mp4;base64,${Buffer.from(MP4).toString('base64')}` },
      },
    ]);
  });

  it("streamText: a tool call's string input goes as it is; a BigInt in a JSON result as its digits", async () => {
    const result = streamText({
      model: gateway()('community/general'),
      maxRetries: 0,
      include: { requestBody: true },
      messages: [
        { role: 'user', content: 'how many rows in Kyiv?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{"city":"Kyiv"}' },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'count', input: { rows: 10n } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'weather',
              output: { type: 'text', value: '+3C' },
            },
            {
              type: 'tool-result',
              toolCallId: 'c2',
              toolName: 'count',
              output: { type: 'json', value: { rows: 10n } as never },
            },
          ],
        },
      ],
    });
    await result.consumeStream({ onError: (error) => expect.unreachable(String(error)) });
    const body = (await result.request).body as { messages: Record<string, unknown>[] };
    const calls = body.messages[1]?.tool_calls as { function: { arguments: string } }[];
    expect(calls.map((call) => call.function.arguments)).toEqual([
      '{"city":"Kyiv"}',
      '{"rows":"10"}',
    ]);
    expect(body.messages[3]).toMatchObject({ role: 'tool', content: '{"rows":"10"}' });
  });
});

describe('a replayed tool call whose string input is not JSON', () => {
  it('sends it JSON-encoded, a string that parses as it is (`arguments` stay JSON)', async () => {
    const call = (toolCallId: string, input: string) => ({
      role: 'assistant' as const,
      content: [{ type: 'tool-call' as const, toolCallId, toolName: 'weather', input }],
    });
    const result = (toolCallId: string) => ({
      role: 'tool' as const,
      content: [
        {
          type: 'tool-result' as const,
          toolCallId,
          toolName: 'weather',
          output: { type: 'error-text' as const, value: 'bad arguments' },
        },
      ],
    });
    const sent = await sentMessages([
      { role: 'user', content: 'weather?' },
      call('c1', '{"city": "Par'),
      result('c1'),
      call('c2', '{"city":"Paris"}'),
      result('c2'),
    ]);
    const args = (index: number) =>
      (sent[index] as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]?.function
        .arguments;
    expect(args(1)).toBe(JSON.stringify('{"city": "Par'));
    expect(args(3)).toBe('{"city":"Paris"}');
  });
});

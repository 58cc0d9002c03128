// What the AI SDK gives of bytes the server sends (docs/gateway-protocol.md §5.1, §5.4): `raw`
// parts carry each SSE chunk's JSON as sent (as @ai-sdk/openai-compatible's do), so fields core
// does not read (Perplexity's `citations`, Groq's `x_groq`) are reachable; a content part of a type
// core does not know, with a string `text`, is text.
import { emulate } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { streamText as streamTextV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src';
import { createGateway as createGatewayV6 } from '../src/v6';

const MODEL = 'community/general';
const first = {
  id: 'c1',
  object: 'chat.completion.chunk',
  model: MODEL,
  created: 1,
  citations: ['https://example.test/kyiv'],
  choices: [{ index: 0, delta: { role: 'assistant', content: 'Kyiv [1]' }, finish_reason: null }],
};
const last = {
  id: 'c1',
  object: 'chat.completion.chunk',
  model: MODEL,
  created: 1,
  x_groq: { id: 'req_1' },
  choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
};

/** An emulated gateway's settings whose chat answers are `answer` (the emulator serves the rest). */
async function connection(answer: (streamed: boolean) => Response) {
  const gateway = await emulate();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return gateway.fetch(request);
    return answer((await request.json()).stream === true);
  };
  return { ...gateway.connection, fetch };
}

const sse = (...chunks: object[]) =>
  new Response(
    `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`,
    { headers: { 'content-type': 'text/event-stream' } },
  );

describe('raw parts (include: { rawChunks: true })', () => {
  it('carry each SSE chunk as sent, its extra fields included', async () => {
    const gateway = createGateway(await connection(() => sse(first, last)));
    for (const asked of [{ include: { rawChunks: true } }, { includeRawChunks: true }]) {
      const result = streamText({ model: gateway(MODEL), prompt: 'capital?', ...asked });
      const raw: unknown[] = [];
      for await (const part of result.fullStream) if (part.type === 'raw') raw.push(part.rawValue);
      expect(raw).toEqual([first, last]);
      expect(await result.text).toBe('Kyiv [1]');
    }
  });

  it('the same from /v6 (AI SDK 6: includeRawChunks)', async () => {
    const gateway = createGatewayV6(await connection(() => sse(first, last)));
    const result = streamTextV6({
      model: gateway(MODEL),
      prompt: 'capital?',
      includeRawChunks: true,
    });
    const raw: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'raw') raw.push(part.rawValue);
    expect(raw).toEqual([first, last]);
  });

  it('none unless asked', async () => {
    const gateway = createGateway(await connection(() => sse(first, last)));
    const result = streamText({ model: gateway(MODEL), prompt: 'capital?' });
    const types = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).not.toContain('raw');
  });
});

describe('a content part of a type core does not know, with a string text', () => {
  const content = [{ type: 'output_text', text: 'Hello' }];

  it('is the text of generateText and streamText', async () => {
    const gateway = createGateway(
      await connection((streamed) =>
        streamed
          ? sse(
              { id: 'c1', choices: [{ index: 0, delta: { content }, finish_reason: null }] },
              { id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
            )
          : Response.json({
              id: 'c1',
              object: 'chat.completion',
              choices: [
                { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' },
              ],
            }),
      ),
    );
    expect((await generateText({ model: gateway(MODEL), prompt: 'hi' })).text).toBe('Hello');
    expect(await streamText({ model: gateway(MODEL), prompt: 'hi' }).text).toBe('Hello');
  });
});

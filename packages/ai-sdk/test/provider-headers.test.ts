// The provider's `headers` (docs/gateway-protocol.md §2.3), read by core as fetch reads them: an
// entry whose value is undefined (`{ 'x-org': process.env.ORG }` with no `ORG`) is left out, as
// @ai-sdk/openai-compatible leaves it out, not sent as the text "undefined".
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { gateway } = await providersOnMsw({});

describe("createGateway's headers", () => {
  it('leaves out an entry whose value is undefined', async () => {
    const sent: Headers[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.url.endsWith('/chat/completions')) sent.push(request.headers);
      return globalThis.fetch(request);
    };
    const headers = { 'x-org': undefined, 'x-b': 'b' } as unknown as Record<string, string>;
    await generateText({ model: gateway({ headers, fetch })('community/general'), prompt: 'hi' });
    expect(sent.map((h) => [h.has('x-org'), h.get('x-b')])).toEqual([[false, 'b']]);
  });
});

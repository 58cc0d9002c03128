// Request headers (docs/gateway-protocol.md §2.3) read by core's one rule, as fetch reads them: an
// entry whose value is undefined (`{ 'x-org': process.env.ORG }` with no `ORG`) is left out, not
// sent as the text "undefined" — in `createGateway`'s `headers` (typed to take it, as the AI SDK's
// call headers are) and in a call's `headers` (generateText, embedMany), the call's over the
// provider's.
import { embedMany, generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { gateway } = await providersOnMsw({});

/** A fetch that records the headers of each request to `path`, then lets the gateway answer. */
function recording(path: string) {
  const sent: Headers[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith(path)) sent.push(request.headers);
    return globalThis.fetch(request);
  };
  return { sent, fetch };
}

const org: string | undefined = undefined;
const seen = (sent: Headers[]) =>
  sent.map((h) => ({ org: h.has('x-org'), team: h.get('x-team'), call: h.get('x-call') }));

describe('headers', () => {
  it("createGateway's and generateText's leave out an entry whose value is undefined", async () => {
    const { sent, fetch } = recording('/chat/completions');
    const provider = gateway({ headers: { 'x-org': org, 'x-team': 'search' }, fetch });
    await generateText({
      model: provider('community/general'),
      prompt: 'hi',
      headers: { 'x-call': 'c1', 'x-team': undefined },
    });
    expect(seen(sent)).toEqual([{ org: false, team: 'search', call: 'c1' }]);
  });

  it('leave out an entry whose value is null (JavaScript callers), as the AI SDK does', async () => {
    const { sent, fetch } = recording('/chat/completions');
    const nullHeaders = { 'x-org': null, 'x-team': 'search' } as unknown as Record<string, string>;
    const provider = gateway({ headers: nullHeaders, fetch });
    await generateText({
      model: provider('community/general'),
      prompt: 'hi',
      headers: { 'x-call': null } as unknown as Record<string, string>,
    });
    expect(seen(sent)).toEqual([{ org: false, team: 'search', call: null }]);
  });

  it("embedMany's too, the call's value over the provider's", async () => {
    const { sent, fetch } = recording('/embeddings');
    const provider = gateway({ headers: { 'x-org': org, 'x-team': 'search' }, fetch });
    await embedMany({
      model: provider.embeddingModel('all-minilm-l6-v2'),
      values: ['a', 'b'],
      headers: { 'x-call': 'c2', 'x-team': 'docs' },
    });
    expect(seen(sent)).toEqual([{ org: false, team: 'docs', call: 'c2' }]);
  });
});

describe('a header name holding the API key', () => {
  it('(a pasted `Authorization: Bearer` line) is refused at the first call without quoting the key', async () => {
    const key = 'sk-live-ABCDEFGH12345678';
    const provider = gateway({ apiKey: key, headers: { [`Authorization: Bearer ${key}`]: '' } });
    const error = await generateText({
      model: provider('community/general'),
      prompt: 'hi',
      maxRetries: 0,
    }).then(
      () => new Error('not refused'),
      (e: unknown) => e as Error,
    );
    expect(error.message).toBe(
      'Invalid header in `headers`: `Authorization: …` (the rest not shown: it may hold a credential) is not a valid header name',
    );
  });
});

/**
 * `similarity` checks the query and every text with core's own checks before either is sent
 * (README: "each text is checked before anything is sent"): a refused text does not follow a
 * query already on its way to the gateway.
 */
import type { GatewayEvent } from '@infergate/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness';

/** Half of a surrogate pair (with the `u` flag a whole pair is one code point, not matched). */
const LONE_SURROGATE = /\p{Cs}/u;

/** The paths the server's gateway client asked its fetch for, as it asked (before any answer). */
const fetched: string[] = [];
/** The `done` events of the embeddings calls the server's gateway client made. */
const embeddingsDone: Extract<GatewayEvent, { type: 'done' }>[] = [];
let harness: Harness;
let client: Client;
beforeAll(async () => {
  harness = await startHarness({
    server: {
      clientOptions: {
        onEvent: (event: GatewayEvent) => {
          if (event.type === 'done' && event.operation === 'embeddings') embeddingsDone.push(event);
        },
        fetch: (input, init) => {
          fetched.push(new URL(input instanceof Request ? input.url : input).pathname);
          return fetch(input, init);
        },
      },
    },
  });
  client = await harness.connect();
});
afterAll(() => harness.close());
beforeEach(() => {
  fetched.length = 0;
  embeddingsDone.length = 0;
});

const engine = 'multilingual-e5-base';
const tooLong = 'x'.repeat(40_000);
const embeddingsAsked = () => fetched.filter((path) => path.endsWith('/embeddings')).length;

describe('similarity', () => {
  it.each([
    { refused: 'texts[1]', args: { query: 'hello', texts: ['ok', tooLong] } },
    { refused: 'query', args: { query: tooLong, texts: ['ok'] } },
    { refused: 'texts[0]', args: { query: 'hello', texts: [tooLong] } },
  ])('refuses $refused before anything is sent', async ({ refused, args }) => {
    const result = await client.callTool({ name: 'similarity', arguments: { ...args, engine } });
    expect(result.structuredContent).toMatchObject({
      error: { code: 'invalid_request_error', field: refused },
    });
    expect(embeddingsAsked()).toBe(0);
    expect(harness.gateway.emulator.counters.requests.embeddings).toBe(0);
    // Checked without making a call: the server's onEvent sees no call (no aborted one either).
    expect(embeddingsDone).toEqual([]);
  });

  it('sends both once every input passed: the query and the texts, one request each', async () => {
    const result = await client.callTool({
      name: 'similarity',
      arguments: { query: 'cats', texts: ['dogs', 'cats purr'], engine },
    });
    expect(result.isError).toBeFalsy();
    expect(embeddingsAsked()).toBe(2);
    // The two calls sent, both answered: no call begun only to check the inputs.
    expect(embeddingsDone.map((event) => event.ok)).toEqual([true, true]);
  });

  it('echoes a long text cut at a code point, never half of an emoji', async () => {
    const text = `a${'🙂'.repeat(150)}`; // UTF-16 unit 199 is a high surrogate
    const result = await client.callTool({
      name: 'similarity',
      arguments: { query: 'a', texts: [text], engine },
    });
    expect(result.isError).toBeFalsy();
    const ranking = (result.structuredContent as { ranking: { text: string }[] }).ranking;
    expect(ranking[0]!.text).toBe(`a${'🙂'.repeat(99)}…`);
    expect(ranking[0]!.text).not.toMatch(LONE_SURROGATE);
    const content = result.content as { type: string; text: string }[];
    expect(content[0]!.text).not.toMatch(LONE_SURROGATE);
  });
});

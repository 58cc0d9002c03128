// docs/gateway-protocol.md §3.2 (the embeddings entry's `engines`), §6 (embeddings): what a gateway
// may do that the spec leaves open. It may drop `dimensions` (the spec does not show the field):
// vectors of another length than asked fail the call, since they would go into an index built for
// the length asked. Its entry may list no `engines`: which engines there are is then unknown, not
// none. And `embedMany`'s options are checked with no text to send.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { caught, clientOn } from './helpers';

const MULTILINGUAL = 'multilingual-e5-base';

/** The gateway as it might be: it drops `dimensions` from an embeddings request. */
async function droppingDimensions() {
  const gateway = await emulate();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/embeddings')) return gateway.fetch(request);
    const { dimensions: _, ...body } = await request.json();
    return gateway.fetch(new Request(request, { body: JSON.stringify(body) }));
  };
  return { client: clientOn(gateway, { fetch }), emulator: gateway.emulator };
}

/** A GET /capabilities whose embeddings entry has no `engines` field. */
async function enginesUnlisted() {
  const gateway = await emulate();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const answer = await gateway.fetch(input, init);
    if (!new Request(input, init).url.endsWith('/capabilities')) return answer;
    const body = await answer.json();
    for (const service of body.data) if (service.id === 'embeddings') delete service.engines;
    return Response.json(body);
  };
  return { client: clientOn(gateway, { fetch }), emulator: gateway.emulator };
}

describe('vectors of another length than `dimensions` asked', () => {
  it.each([
    [
      'embed',
      (c: ReturnType<typeof clientOn>) =>
        c.embed({ input: 'a', model: MULTILINGUAL, dimensions: 256 }),
    ],
    [
      'embedMany',
      (c: ReturnType<typeof clientOn>) =>
        c.embedMany(['a', 'b'], { model: MULTILINGUAL, dimensions: 256 }),
    ],
  ] as const)(
    '%s: invalid_response naming `dimensions`, what was asked and what came',
    async (_, send) => {
      const { client } = await droppingDimensions();
      const error = await caught(() => send(client));
      expect(error).toMatchObject({ code: 'invalid_response', field: 'dimensions', status: 200 });
      expect(error.message).toMatch(
        /^The embeddings answer has vectors of length 768 where `dimensions: 256` was asked/,
      );
    },
  );

  it('the length asked, or none asked: the vectors as they come', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const asked = await client.embedMany(['a'], { model: MULTILINGUAL, dimensions: 256 });
    expect(asked[0]).toHaveLength(256);
    const { client: dropping } = await droppingDimensions();
    expect((await dropping.embedMany(['a'], { model: MULTILINGUAL }))[0]).toHaveLength(768);
  });
});

describe('an embeddings entry without `engines`', () => {
  it('an engine named is sent as named: the gateway decides', async () => {
    const { client, emulator } = await enginesUnlisted();
    expect((await client.embedMany(['a'], { model: MULTILINGUAL }))[0]).toHaveLength(768);
    expect(emulator.counters.requests.embeddings).toBe(1);
  });

  it('no engine named: a refusal saying the list names none, nothing sent', async () => {
    const { client, emulator } = await enginesUnlisted();
    const error = await caught(() => client.embedMany(['a']));
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'model' });
    expect(error.message).toBe(
      'model: is required: GET /capabilities lists no engines for embeddings (its entry has no `engines` field); name one with `model`',
    );
    expect(emulator.counters.requests.embeddings).toBe(0);
  });
});

describe('embedMany of no text', () => {
  it('refuses a bad option still', async () => {
    const client = clientOn(await emulate());
    const error = await caught(() => client.embedMany([], { dimensions: 'x' as never }));
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'dimensions' });
    const inputType = await caught(() => client.embedMany([], { inputType: 'passage' as never }));
    expect(inputType).toMatchObject({ field: 'inputType' });
    expect(await client.embedMany([], { dimensions: 256 })).toEqual([]);
  });
});

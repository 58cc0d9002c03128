// docs/gateway-protocol.md §4.3: `n` asking several choices is refused on LangChain's stream path
// only, and the refusal says what that path is and how to leave it. The path is taken by `.stream()`
// and `streamEvents`, but also by an `invoke` / `generate` the user never asked to stream, when a
// callback prefers streaming (LangGraph's `streamMode: 'messages'` attaches one): LangChain joins
// its chunks into one message. `disableStreaming: true` keeps every call off that path, and
// `generate()` then gives every choice. An `n` that is not a number (`"2"`, which a lax server
// reads as 2) is refused there as 2 is.
import { emulate } from '@infergate/emulator/testing';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';

/** A handler as LangGraph's `streamMode: 'messages'` attaches: it asks the model to stream. */
class PrefersStreaming extends BaseCallbackHandler {
  name = 'prefers-streaming';
  lc_prefer_streaming = true;
  override handleLLMNewToken() {}
}

/**
 * A model asking `n` choices on an emulated gateway, whose whole answer to a request asking two
 * has two choices (the emulator's own has one); the chat bodies sent are kept.
 */
async function modelAsking(n: unknown, fields: { disableStreaming?: boolean } = {}) {
  const gateway = await emulate();
  const sent: { n?: unknown; stream?: boolean }[] = [];
  const connection = intercepting(gateway, async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const body = await request.json();
    sent.push(body);
    if (body.n !== 2 || body.stream === true) return undefined;
    const choice = (index: number, content: string) => ({
      index,
      message: { role: 'assistant', content },
      finish_reason: 'stop',
    });
    return Response.json(
      {
        id: 'c1',
        object: 'chat.completion',
        model: MODEL,
        choices: [choice(0, 'A'), choice(1, 'B')],
      },
      { headers: { 'x-service-model': MODEL } },
    );
  });
  const model = new GatewayChatModel(MODEL, { ...connection, ...fields, modelKwargs: { n } });
  return { model, sent, close: () => gateway.close() };
}

const refusal = (run: () => Promise<unknown>) =>
  run().then(
    () => undefined,
    (error: unknown) => error as { code?: string; field?: string; message: string },
  );

describe("n > 1 on LangChain's stream path", () => {
  it.each([
    [
      'invoke',
      (model: GatewayChatModel) => model.invoke('hi', { callbacks: [new PrefersStreaming()] }),
    ],
    [
      'generate',
      (model: GatewayChatModel) =>
        model.generate([[new HumanMessage('hi')]], { callbacks: [new PrefersStreaming()] }),
    ],
  ])(
    '%s with a callback that prefers streaming: refused saying it is the stream path and that disableStreaming: true lets it through, nothing sent',
    async (_, run) => {
      const { model, sent, close } = await modelAsking(2);
      const error = await refusal(() => run(model));
      expect(error).toMatchObject({ code: 'invalid_request_error', field: 'modelKwargs.n' });
      expect(error?.message).toMatch(/^modelKwargs\.n: 2, not 1, on LangChain's stream path \(/);
      expect(error?.message).toContain('a streaming callback');
      expect(error?.message).toContain(
        'disableStreaming: true (generate() then gives every choice',
      );
      expect(sent).toEqual([]);
      await close();
    },
  );

  it('disableStreaming: true: generate() with that callback gives every choice as a generation', async () => {
    const { model, sent, close } = await modelAsking(2, { disableStreaming: true });
    const result = await model.generate([[new HumanMessage('hi')]], {
      callbacks: [new PrefersStreaming()],
    });
    expect(result.generations[0]?.map((generation) => generation.text)).toEqual(['A', 'B']);
    expect(sent).toMatchObject([{ n: 2 }]);
    expect(sent[0]?.stream).not.toBe(true);
    await close();
  });

  it('disableStreaming: true: streamEvents asks whole, n sent', async () => {
    const { model, sent, close } = await modelAsking(2, { disableStreaming: true });
    for await (const _ of model.streamEvents('hi', { version: 'v2' }));
    expect(sent).toMatchObject([{ n: 2 }]);
    await close();
  });

  it.each([
    ['"2"', '2', 'a string'],
    ['true', true, 'a boolean'],
    ['2.5', 2.5, '2.5'],
  ])('n: %s on .stream(): refused as 2 is, nothing sent', async (_, n, shown) => {
    const { model, sent, close } = await modelAsking(n);
    const error = await refusal(async () => {
      for await (const _ of await model.stream('hi'));
    });
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'modelKwargs.n' });
    expect(error?.message).toContain(`modelKwargs.n: ${shown}, not 1, on LangChain's stream path`);
    expect(sent).toEqual([]);
    await close();
  });

  it.each([
    ['null', null],
    ['0', 0],
  ])('n: %s on .stream(): no more than one choice, sent as given', async (_, n) => {
    const { model, sent, close } = await modelAsking(n);
    for await (const _ of await model.stream('hi'));
    expect(sent).toMatchObject([{ n }]);
    await close();
  });
});

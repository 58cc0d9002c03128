// docs/gateway-protocol.md §4.3: a stream's chunks join into one message, so `n` > 1 on a streamed
// call would have the other choices generated and billed, then dropped unseen. Refused before
// anything is sent, the catalog read too (`invalid_request_error` naming `modelKwargs.n`);
// `generate()` without streaming gives every choice (logprobs-and-choices.test.ts); the other
// ways onto the stream path and `disableStreaming: true`: streamed-choices-stream-path.test.ts.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const STREAMED: [string, (model: GatewayChatModel) => Promise<unknown>][] = [
  [
    'stream',
    async (model) => {
      for await (const _ of await model.stream('hi'));
    },
  ],
  [
    'stream, n in the call',
    async (model) => {
      for await (const _ of await model.stream('hi', { modelKwargs: { n: 3 } }));
    },
  ],
  [
    'streamEvents',
    async (model) => {
      for await (const _ of model.streamEvents('hi', { version: 'v2' }));
    },
  ],
  ['invoke with streaming: true', (model) => model.invoke('hi')],
];

async function modelOnEmulator(fields: { streaming?: boolean; n?: number }) {
  const gateway = await emulate();
  const sent: string[] = [];
  const connection = intercepting(gateway, async (request) => {
    sent.push(new URL(request.url).pathname);
    return undefined;
  });
  const model = new GatewayChatModel('community/general', {
    ...connection,
    streaming: fields.streaming,
    modelKwargs: fields.n === undefined ? {} : { n: fields.n },
  });
  return { model, sent, close: () => gateway.close() };
}

describe('n > 1 on a streamed call', () => {
  it.each(STREAMED)('%s: refused naming modelKwargs.n, nothing sent', async (name, run) => {
    const { model, sent, close } = await modelOnEmulator({
      streaming: name.startsWith('invoke'),
      n: name.includes('call') ? undefined : 2,
    });
    const refused = await run(model).then(
      () => undefined,
      (error: unknown) => error as { code?: string; field?: string; message: string },
    );
    expect(refused).toMatchObject({ code: 'invalid_request_error', field: 'modelKwargs.n' });
    expect(refused?.message).toMatch(/^modelKwargs\.n: [23], not 1, on LangChain's stream path/);
    expect(sent).toEqual([]);
    await close();
  });

  it('n: 1 streams', async () => {
    const { model, sent, close } = await modelOnEmulator({ n: 1 });
    let text = '';
    for await (const chunk of await model.stream('hi')) text += chunk.text;
    expect(text.length).toBeGreaterThan(0);
    expect(sent).toContain('/v1/chat/completions');
    await close();
  });
});

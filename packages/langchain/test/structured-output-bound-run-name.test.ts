// A run name bound with withConfig names the chat model's run under withStructuredOutput too (as
// with ChatOpenAI): the structured-output pipeline's own name (`StructuredOutput`) names its own
// run only, also when nothing traces the pipeline itself.
import { emulate } from '@infergate/emulator/testing';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';

const City = z.object({ city: z.string() });

/** A handler that keeps the run name of each chat model run (and each chain run) it sees. */
function runNames() {
  const chat: Array<string | undefined> = [];
  const chains: Array<string | undefined> = [];
  const handler = BaseCallbackHandler.fromMethods({
    handleChatModelStart(_llm, _messages, _run, _parent, _extra, _tags, _metadata, runName) {
      chat.push(runName);
    },
    handleChainStart(_chain, _inputs, _run, _parent, _tags, _metadata, _type, runName) {
      chains.push(runName);
    },
  });
  return { chat, chains, handler };
}

describe('a bound runName under withStructuredOutput', () => {
  it('names the chat model run on invoke, batch and stream, with or without includeRaw', async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', gateway.connection);
    const { chat, handler } = runNames();
    const bound = model.withConfig({ callbacks: [handler], runName: 'Bound' });
    const structured = bound.withStructuredOutput(City);
    await structured.invoke('Paris');
    await structured.batch(['Paris']);
    for await (const _ of await structured.stream('Paris'));
    await bound.withStructuredOutput(City, { includeRaw: true }).invoke('Paris');
    expect(chat).toEqual(['Bound', 'Bound', 'Bound', 'Bound']);
  });

  it("leaves the pipeline's own name and a call's run name to their runs", async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', gateway.connection);
    const { chat, chains, handler } = runNames();
    await model.withStructuredOutput(City).invoke('Paris', { callbacks: [handler] });
    await model
      .withConfig({ runName: 'Bound' })
      .invoke('Paris', { callbacks: [handler], runName: 'Mine' });
    expect(chains[0]).toBe('StructuredOutput');
    // (No name given: the model's run is named by its class where traced.)
    expect(chat).toEqual([undefined, 'Mine']);
  });
});

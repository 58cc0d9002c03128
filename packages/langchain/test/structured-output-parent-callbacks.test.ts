// withStructuredOutput called inside a parent run without its config (a LangGraph node's style:
// the parent's callbacks reach it through async context) keeps the chat model's run in the
// parent's trace, as a plain invoke does and as ChatOpenAI's does.
import { AsyncLocalStorage } from 'node:async_hooks';
import { emulate } from '@infergate/emulator/testing';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { RunnableLambda } from '@langchain/core/runnables';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';

const City = z.object({ city: z.string() });

beforeAll(() => {
  // What LangGraph does on import: a parent's config reaches the calls made inside it.
  AsyncLocalStorageProviderSingleton.initializeGlobalInstance(new AsyncLocalStorage());
});

/** The names of the chat model runs and chain runs a handler sees. */
function seenRuns() {
  const runs: string[] = [];
  const handler = BaseCallbackHandler.fromMethods({
    handleChatModelStart() {
      runs.push('chat-model');
    },
    handleChainStart(_chain, _inputs, _run, _parent, _tags, _metadata, _type, runName) {
      runs.push(`chain ${runName ?? ''}`);
    },
  });
  return { runs, handler };
}

describe('withStructuredOutput inside a parent run, its config not passed', () => {
  it("keeps the chat model's run in the parent's trace, named and under the pipeline's", async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', gateway.connection);
    const structured = model.withStructuredOutput(City);
    const { runs, handler } = seenRuns();
    const parent = RunnableLambda.from(async (input: string) => structured.invoke(input));
    await parent.invoke('Paris', { callbacks: [handler], runName: 'node' });
    expect(runs[0]).toBe('chain node');
    expect(runs).toContain('chat-model');
    expect(runs).toContain('chain StructuredOutput');
  });

  it('a bound runName still names the chat model run there', async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', gateway.connection);
    const names: Array<string | undefined> = [];
    const handler = BaseCallbackHandler.fromMethods({
      handleChatModelStart(_llm, _messages, _run, _parent, _extra, _tags, _metadata, runName) {
        names.push(runName);
      },
    });
    const structured = model.withConfig({ runName: 'Bound' }).withStructuredOutput(City);
    await RunnableLambda.from(async (input: string) => structured.invoke(input)).invoke('Paris', {
      callbacks: [handler],
    });
    expect(names).toEqual(['Bound']);
  });
});

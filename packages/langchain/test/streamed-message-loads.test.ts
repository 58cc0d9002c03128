// A streamed answer joined with `concat` is written as LangChain's own `AIMessageChunk`, as
// `ChatOpenAI`'s is: `load()` and LangGraph's checkpoints read it back (a thread's next turn
// loads the state its last turn saved).
import { emulate } from '@infergate/emulator/testing';
import { load } from '@langchain/core/load';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import { Annotation, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { weatherTool } from './helpers';

/** The stream of `input`, joined as LangChain's docs join one. */
async function joined(model: GatewayChatModel, input: string): Promise<AIMessageChunk> {
  let full: AIMessageChunk | undefined;
  for await (const chunk of await model.stream(input)) full = full ? full.concat(chunk) : chunk;
  if (!full) throw new Error('no chunk');
  return full;
}

describe('a streamed, joined answer serialised', () => {
  it('loads back as an AIMessageChunk with its text, calls and metadata', async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', gateway.connection);
    const text = await joined(model, 'one two three');
    const calls = await joined(
      model.bindTools([weatherTool]) as GatewayChatModel,
      'weather for "Kyiv"',
    );
    for (const message of [text, calls]) {
      const json = JSON.stringify(message);
      expect(JSON.parse(json).id).toEqual(['langchain_core', 'messages', 'AIMessageChunk']);
      const loaded = await load<AIMessageChunk>(json);
      expect(loaded.constructor.name).toBe('AIMessageChunk');
      expect(loaded.content).toEqual(message.content);
      expect(loaded.tool_calls).toEqual(message.tool_calls);
      expect(loaded.response_metadata.model_name).toBe(message.response_metadata.model_name);
    }
    expect(calls.tool_calls?.[0]).toMatchObject({ name: 'weather', args: { city: 'Kyiv' } });
  });

  it("is kept by a LangGraph checkpointer: a thread's second turn loads the first", async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', gateway.connection);
    const State = Annotation.Root({
      history: Annotation<BaseMessage[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const graph = new StateGraph(State)
      .addNode('chat', async () => ({ history: [await joined(model, 'hi')] }))
      .addEdge(START, 'chat')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'thread-1' } };
    await graph.invoke({}, config);
    const second = await graph.invoke({}, config);
    expect(second.history).toHaveLength(2);
    expect(second.history[0]?.constructor.name).toBe('AIMessageChunk');
  });
});

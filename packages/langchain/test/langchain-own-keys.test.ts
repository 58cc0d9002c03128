// Every key LangChain itself puts in a chat model's call options, through its usual entry points,
// is one the options check knows (ours or LangChain's): an unknown key is searched as a near miss
// of ours at every call (an edit-distance search), which cost a plain `invoke` ~200 µs when
// LangChain's own `promptIndex` was missing from the list (bench B1).
import { emulate } from '@infergate/emulator/testing';
import { tool } from '@langchain/core/tools';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LANGCHAIN_KEYS, OUR_CALL_OPTIONS } from '../src/chat_models/gateway-chat-model-options';
import { GatewayChatModel } from '../src/index';

const { connection } = await emulate({ hooks: { afterEach, afterAll } });
const KNOWN = new Set([...LANGCHAIN_KEYS, ...OUR_CALL_OPTIONS]);

/** A model that records the keys of every call's options. */
function recording() {
  const keys = new Set<string>();
  const model = new GatewayChatModel({ model: 'community/general', ...connection });
  const generate = model._generate.bind(model);
  model._generate = (messages, options, runManager) => {
    for (const key of Object.keys(options)) keys.add(key);
    return generate(messages, options, runManager);
  };
  const stream = model._streamResponseChunks.bind(model);
  model._streamResponseChunks = (messages, options, runManager) => {
    for (const key of Object.keys(options)) keys.add(key);
    return stream(messages, options, runManager);
  };
  return { model, keys };
}

describe("LangChain's own call-option keys are known", () => {
  it('invoke, stream, batch, streamEvents, withConfig and bindTools', async () => {
    const { model, keys } = recording();
    await model.invoke('hi');
    for await (const _ of await model.stream('hi'));
    await model.batch(['a', 'b']);
    for await (const _ of model.streamEvents('hi', { version: 'v2' }));
    await model.withConfig({ tags: ['t'], metadata: { m: 1 } }).invoke('hi');
    const add = tool(({ a }: { a: number }) => String(a), {
      name: 'add',
      description: 'adds',
      schema: z.object({ a: z.number() }),
    });
    await model.bindTools([add]).invoke('hi');
    expect(keys.size).toBeGreaterThan(0);
    expect([...keys].filter((key) => !KNOWN.has(key))).toEqual([]);
  });
});

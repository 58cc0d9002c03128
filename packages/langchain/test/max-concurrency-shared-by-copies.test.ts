// A GatewayChatModel's `maxConcurrency` bounds its calls made through its copies too: a
// `bindTools` or `withConfig` copy (and so `withStructuredOutput` and `createAgent`, which bind
// the model at each call) is the same model, waiting in the same LangChain queue.
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { API_KEY, weatherTool } from './helpers';

/** A callback that counts the model runs LangChain has started, and waits for a number of them. */
function startedRuns() {
  let started = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const handler = {
    handleChatModelStart() {
      started += 1;
      for (const wait of waiting.filter((entry) => entry.count <= started)) wait.resolve();
    },
  };
  const until = (count: number) =>
    new Promise<void>((resolve) => {
      if (started >= count) resolve();
      else waiting.push({ count, resolve });
    });
  return { callbacks: [handler], until };
}

type Config = { callbacks: ReturnType<typeof startedRuns>['callbacks'] };

/** Three calls at once through a copy of `model`, each made as LangChain's entry point makes it. */
const CALLS = [
  [
    'bindTools(tools).invoke',
    (model: GatewayChatModel, config: Config) =>
      model.bindTools([weatherTool]).invoke('hi', config),
  ],
  [
    'withConfig({ tags }).invoke',
    (model: GatewayChatModel, config: Config) =>
      model.withConfig({ tags: ['copy'] }).invoke('hi', config),
  ],
  [
    'withStructuredOutput(schema).invoke',
    (model: GatewayChatModel, config: Config) =>
      model.withStructuredOutput(z.object({ name: z.string() })).invoke('describe "Ada"', config),
  ],
  [
    'createAgent({ model, tools }).invoke',
    (model: GatewayChatModel, config: Config) =>
      createAgent({ model, tools: [weatherTool] }).invoke(
        { messages: [{ role: 'user', content: 'weather for "Kyiv"' }] },
        config,
      ),
  ],
] as const;

/** The model under test: one call at a time. */
const modelOn = (gateway: EmulatedGateway) =>
  new GatewayChatModel('community/general', { ...gateway.connection, maxConcurrency: 1 });

describe("GatewayChatModel maxConcurrency: its copies wait in the model's queue", () => {
  it.each(CALLS)('%s ×3 at once: one chat request in flight at a time', async (_name, call) => {
    const gateway = await emulate();
    const model = modelOn(gateway);
    // (The parts loaded on first use, and the catalog, are read first.)
    await call(model, startedRuns());
    gateway.reset();
    const runs = startedRuns();
    const release = gateway.hold();
    const calls = Promise.all([1, 2, 3].map(() => call(model, runs)));
    // All three model runs begun, one request held: the other two wait in the queue, unsent.
    await Promise.all([runs.until(3), gateway.untilHeld(1)]);
    expect(gateway.counters.requests.chat).toBe(1);
    release();
    await calls;
    expect(gateway.counters.maxInflight[API_KEY]).toBe(1);
  });

  it("a copy's calls and the model's own share the one queue", async () => {
    const gateway = await emulate();
    const model = modelOn(gateway);
    await model.invoke('hi');
    gateway.reset();
    const release = gateway.hold();
    const first = model.invoke('hi');
    await gateway.untilHeld(1);
    const runs = startedRuns();
    const second = model.bindTools([weatherTool]).invoke('hi', runs);
    await runs.until(1);
    expect(gateway.counters.requests.chat).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(gateway.counters.requests.chat).toBe(2);
    expect(gateway.counters.maxInflight[API_KEY]).toBe(1);
  });
});

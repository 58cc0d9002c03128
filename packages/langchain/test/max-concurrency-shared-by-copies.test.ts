// A GatewayChatModel's `maxConcurrency` bounds its calls made through its copies too: a
// `bindTools` or `withConfig` copy (and so `withStructuredOutput` and `createAgent`, which bind
// the model at each call) is the same model, waiting in the same LangChain queue.
//
// Each test holds every chat answer at the emulator and lets them out one at a time. Between two
// releases it waits (on the emulator's state and the calls' ends, never on the clock) until the
// run is still: every request in flight is held, and as many are in flight as the bound lets
// (or as there are calls left). A watch on the emulator's state records the most requests in
// flight at any change over the whole run, and fails the wait at once when it passes the bound.
import { type EmulatedGateway, emulate, heldOf, inflightOf } from '@infergate/emulator/testing';
import { createAgent } from 'langchain';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { API_KEY, weatherTool } from './helpers';

/** A callback that counts the model runs LangChain has started, telling `started` of each. */
function startedRuns(started = () => {}) {
  const runs = {
    count: 0,
    callbacks: [
      {
        handleChatModelStart: () => {
          runs.count += 1;
          started();
        },
      },
    ],
  };
  return runs;
}

type Config = { callbacks: ReturnType<typeof startedRuns>['callbacks'] };

/** A call made as LangChain's entry point makes it, the `n`th of its run: its answer, as text. */
type Call = (model: GatewayChatModel, n: number, config: Config) => Promise<string>;

/** The answer the emulator's scripted model gives the `n`th call of each kind. */
const CITIES = ['Kyiv', 'Lviv', 'Odesa', 'Kharkiv', 'Dnipro', 'Poltava', 'Sumy', 'Rivne', 'Lutsk'];
const NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Niklaus'];

/** The calls, each through a copy of the model made for it (and the model's own, to mix in). */
const CALLS = {
  'bindTools(tools).invoke': {
    call: async (model, n, config) =>
      String((await model.bindTools([weatherTool]).invoke(`hi ${n}`, config)).content),
    answer: (n: number) => `Echo: hi ${n}`,
  },
  'withConfig({ tags }).invoke': {
    call: async (model, n, config) =>
      String((await model.withConfig({ tags: ['copy'] }).invoke(`hi ${n}`, config)).content),
    answer: (n: number) => `Echo: hi ${n}`,
  },
  'withStructuredOutput(schema).invoke': {
    call: async (model, n, config) => {
      const structured = model.withStructuredOutput(z.object({ name: z.string() }));
      return (await structured.invoke(`describe "${NAMES[n]}"`, config)).name;
    },
    answer: (n: number) => `${NAMES[n]}`,
  },
  'createAgent({ model, tools }).invoke': {
    // Two chat requests each: the tool call, then the answer from the tool's result.
    call: async (model, n, config) => {
      const agent = createAgent({ model, tools: [weatherTool] });
      const content = `weather for "${CITIES[n]}"`;
      const { messages } = await agent.invoke({ messages: [{ role: 'user', content }] }, config);
      return String(messages.at(-1)?.content);
    },
    answer: (n: number) => `Tool weather returned: sunny in ${CITIES[n]}`,
  },
  'the model itself: invoke': {
    call: async (model, n, config) => String((await model.invoke(`hi ${n}`, config)).content),
    answer: (n: number) => `Echo: hi ${n}`,
  },
} satisfies Record<string, { call: Call; answer: (n: number) => string }>;

type CallName = keyof typeof CALLS;
const COPIES = Object.keys(CALLS).filter((name) => name !== 'the model itself: invoke') as Exclude<
  CallName,
  'the model itself: invoke'
>[];

/** The model under test, its parts loaded on first use and the catalog read, the counters reset. */
async function modelWithBound(bound: number) {
  const gateway = await emulate();
  onTestFinished(() => gateway.close());
  const model = new GatewayChatModel('community/general', {
    ...gateway.connection,
    maxConcurrency: bound,
  });
  for (const { call } of Object.values(CALLS)) await call(model, 0, startedRuns());
  gateway.reset();
  return { gateway, model };
}

/**
 * The run of some calls, watched: the most of the key's requests in flight at the emulator at any
 * change (`peak`), the calls not ended yet (`unfinished`), and waits that are checked at each
 * change of the emulator's state and at each call's end, and fail at once when more requests than
 * `bound` are in flight or a call fails.
 */
function watchedRun(gateway: EmulatedGateway, bound: number) {
  const inflight = () => inflightOf(gateway.counters, API_KEY);
  const watch = { peak: 0, unfinished: 0, ended: 0, failure: undefined as Error | undefined };
  const waits = new Set<() => void>();
  const check = () => {
    watch.peak = Math.max(watch.peak, inflight());
    if (watch.peak > bound && watch.failure === undefined) {
      watch.failure = new Error(`${watch.peak} chat requests in flight at once, over ${bound}`);
    }
    for (const wait of [...waits]) wait();
  };
  onTestFinished(gateway.emulator.onChange(check));
  const until = (predicate: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const wait = () => {
        if (watch.failure) reject(new Error(`while waiting for ${what}: ${watch.failure.message}`));
        else if (predicate()) resolve();
        else return;
        waits.delete(wait);
      };
      waits.add(wait);
      wait();
    });
  const start = (promise: Promise<string>) => {
    watch.unfinished += 1;
    const ended = promise.then(
      (answer) => {
        watch.unfinished -= 1;
        watch.ended += 1;
        check();
        return answer;
      },
      (error: unknown) => {
        watch.failure ??= error instanceof Error ? error : new Error(String(error));
        check();
        return `failed: ${watch.failure.message}`;
      },
    );
    return ended;
  };
  return { watch, inflight, until, start, runs: startedRuns(check) };
}

/**
 * Calls made through `names` (one call each, in this order), released one chat answer at a time.
 * Each hold holds one request: a new hold is put on only when the run is still, so the request
 * sent next is the only one it holds.
 */
async function heldOneByOne(names: readonly CallName[], bound: number) {
  const { gateway, model } = await modelWithBound(bound);
  const run = watchedRun(gateway, bound);
  const { runs } = run;
  const counters = gateway.counters;
  const held = () => heldOf(counters, API_KEY);
  const holds: (() => void)[] = [];
  let open = gateway.hold();
  let released = 0;
  let sent = 0;
  // Still: every request in flight is held, as many as the bound lets (or as there are calls
  // left), and every request the emulator saw is either answered (released) or held.
  const still = async (what: string) => {
    await run.until(
      () =>
        run.inflight() === held() &&
        held() === Math.min(bound, run.watch.unfinished) &&
        counters.requests.chat === released + held(),
      what,
    );
    expect(counters.requests.chat - sent, 'requests the one open hold took').toBeLessThan(2);
    if (counters.requests.chat > sent) {
      holds.push(open);
      open = gateway.hold();
    }
    sent = counters.requests.chat;
  };
  const answers: Promise<string>[] = [];
  const startCall = (name: CallName) => {
    answers.push(run.start(CALLS[name].call(model, answers.length, runs)));
  };
  // The first `bound - 1` calls one by one, each held on its own; then the rest at once.
  for (const name of names.slice(0, bound - 1)) {
    startCall(name);
    await still(`call ${answers.length} held`);
  }
  for (const name of names.slice(bound - 1)) startCall(name);
  await run.until(() => runs.count >= names.length, `${names.length} model runs started`);
  await still(`${bound} requests held, the other calls queued`);
  return { gateway, run, runs, holds, answers, still, release: () => (released += 1) };
}

/** `names` at once with `maxConcurrency: bound`: never more than `bound` requests in flight. */
async function boundedThroughout(names: readonly CallName[], bound: number) {
  const { gateway, run, runs, holds, answers, still, release } = await heldOneByOne(names, bound);
  // The bound reached, the other calls begun and waiting in the queue: unsent, not failed.
  expect(runs.count).toBe(names.length);
  expect(gateway.counters.requests.chat).toBe(bound);
  expect(inflightOf(gateway.counters, API_KEY)).toBe(bound);
  expect(heldOf(gateway.counters, API_KEY)).toBe(bound);
  expect(run.watch).toMatchObject({ unfinished: names.length, ended: 0, failure: undefined });
  // One answer at a time: each frees one slot, which one queued request takes.
  while (run.watch.unfinished > 0) {
    const next = holds.shift();
    if (next === undefined) throw new Error('calls left unfinished, no request held');
    release();
    next();
    await still(`the next request held after ${gateway.counters.requests.chat} sent`);
    expect(run.inflight()).toBeLessThanOrEqual(bound);
  }
  const expected = names.map((name, n) => CALLS[name].answer(n));
  expect(await Promise.all(answers)).toEqual(expected);
  expect(run.watch).toMatchObject({ peak: bound, ended: names.length, failure: undefined });
  // The emulator's own record of the key's peak since the reset agrees.
  expect(gateway.counters.maxInflight[API_KEY]).toBe(bound);
  expect(gateway.counters.concurrencyRejections).toBe(0);
}

describe("GatewayChatModel maxConcurrency: its copies wait in the model's queue", () => {
  describe.each([1, 2])('maxConcurrency: %i', (bound) => {
    it.each(COPIES)(`%s ×${bound + 2} at once: at most ${bound} in flight`, async (name) => {
      await boundedThroughout(Array<CallName>(bound + 2).fill(name), bound);
    });

    it("the model's own calls and every kind of copy's share the one queue", async () => {
      await boundedThroughout(['the model itself: invoke', ...COPIES, ...COPIES], bound);
    });
  });
});

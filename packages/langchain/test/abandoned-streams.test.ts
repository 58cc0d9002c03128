import { type EmulatedGateway, emulate, untilIdle } from '@infergate/emulator/testing';
import type { BaseMessageChunk } from '@langchain/core/messages';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { API_KEY as key } from './helpers';

/** Longer than any test: the model stays silent after its first piece of text. */
const FOREVER = 60_000;

/** A model whose answer stops after its first piece of text and stays silent. */
async function pausingModel(): Promise<{ gateway: EmulatedGateway; model: GatewayChatModel }> {
  const gateway = await emulate();
  // The role chunk and "Echo: ", then silence.
  gateway.emulator.injectFault({ fault: 'stall_stream', afterChunks: 2, ms: FOREVER });
  return {
    gateway,
    model: new GatewayChatModel({ ...gateway.connection, model: 'community/general' }),
  };
}

/** One turn of the event loop: LangChain's read-ahead asks for the next chunk meanwhile. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Until the request has closed at the gateway and core gave the key's slot back. */
async function slotBack(gateway: EmulatedGateway, model: GatewayChatModel): Promise<void> {
  // The safety net names the wait when the slot stays held (the model's silence outlasts it).
  await untilIdle(gateway.emulator, { key, timeoutMs: 10_000, what: 'the left request to close' });
  expect(gateway.counters.streamsCancelled).toBe(1);
  await model.client.budget.whenIdle();
}

const hasText = (chunk: BaseMessageChunk) =>
  typeof chunk.content === 'string' && chunk.content !== '';

/**
 * Reads `stream` in a task of its own until its first text, then breaks a turn later: `leaving`
 * resolves as it breaks, `left` once the break is done (before the fix, not while the model is
 * silent).
 */
function breakAfterText(stream: Promise<AsyncIterable<BaseMessageChunk>>) {
  let breaking = () => {};
  const leaving = new Promise<void>((resolve) => {
    breaking = resolve;
  });
  const left = (async () => {
    for await (const chunk of await stream) {
      if (!hasText(chunk)) continue;
      await nextTurn();
      breaking();
      break;
    }
  })();
  return { leaving, left };
}

describe('abandoned streams do not hold the key: a stream left unread frees its slot', () => {
  it('4 .stream() loops left with break, then 4 invokes run at once', async () => {
    const { emulator, connection } = await emulate({ scenario: { streamChunkDelayMs: 2 } });
    const model = new GatewayChatModel({ ...connection, model: 'community/general' });
    for (let i = 0; i < 4; i++) {
      const stream = await model.stream('one two three four five six');
      for await (const _chunk of stream) break;
    }
    // Abandoned stream objects that are never iterated again hold nothing either.
    const neverRead = await model.stream('seven eight nine');
    void neverRead;
    await untilIdle(emulator, { key });
    expect(emulator.counters.requests.chat).toBe(5);
    // A cut request's key slot comes back a short grace after its close (core's README).
    await model.client.budget.whenIdle();
    emulator.resetCounters();
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => model.invoke(`call ${i}`)),
    );
    expect(answers.map((answer) => answer.content)).toEqual(
      Array.from({ length: 4 }, (_, i) => `Echo: call ${i}`),
    );
    expect(emulator.counters.maxInflight[key]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });
});

describe('a consumer that leaves while the model is silent mid-answer frees the slot at once', () => {
  it('.stream(): break aborts the read LangChain already started (it would wait for the next chunk)', async () => {
    const { gateway, model } = await pausingModel();
    const { leaving, left } = breakAfterText(model.stream('one two three'));
    await leaving;
    await slotBack(gateway, model);
    await left; // the break itself did not wait for the model either
  });

  it('a bound model (bindTools, withConfig) too', async () => {
    const { gateway, model } = await pausingModel();
    const bound = model.withConfig({ tags: ['bound'] });
    const { leaving, left } = breakAfterText(bound.stream('one two three'));
    await leaving;
    await slotBack(gateway, model);
    await left;
  });
});

/** Where the README's reader leaves: the stream, and whether an item carries the answer's text. */
const LEFT_BY_SIGNAL: [
  string,
  (
    model: GatewayChatModel,
    signal: AbortSignal,
  ) => Promise<AsyncIterable<unknown>> | AsyncIterable<unknown>,
  (item: never) => boolean,
][] = [
  ['model.stream()', (model, signal) => model.stream('one two three', { signal }), hasText],
  [
    "a chain's .stream()",
    (model, signal) =>
      ChatPromptTemplate.fromTemplate('{question}')
        .pipe(model)
        .stream({ question: 'one two three' }, { signal }),
    hasText,
  ],
  [
    'streamEvents (content blocks)',
    (model, signal) => model.streamEvents('one two three', { signal }),
    (event: { event: string }) => event.event === 'content-block-delta',
  ],
  [
    'streamEvents v2',
    (model, signal) => model.streamEvents('one two three', { version: 'v2', signal }),
    (event: { event: string; data: { chunk?: BaseMessageChunk } }) =>
      event.event === 'on_chat_model_stream' &&
      event.data.chunk !== undefined &&
      hasText(event.data.chunk),
  ],
];

describe("where LangChain's own stream receives the break, the caller's AbortSignal frees the slot (README)", () => {
  it.each(LEFT_BY_SIGNAL)('%s: abort, then break', async (_, open, carriesText) => {
    const { gateway, model } = await pausingModel();
    const controller = new AbortController();
    const opened = open(model, controller.signal);
    // (Not awaited when no promise: a ChatModelStream is thenable, awaited it is the whole message.)
    const items = opened instanceof Promise ? await opened : opened;
    for await (const item of items) {
      if (!carriesText(item as never)) continue;
      await nextTurn();
      controller.abort();
      break;
    }
    await slotBack(gateway, model);
  });
});

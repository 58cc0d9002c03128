// LangChain's own model fields that each integration must apply itself, as ChatOpenAI does:
// `disableStreaming`, `maxConcurrency` and `onFailedAttempt` (its AsyncCaller), and the base
// fields a `toJSON()` / `load()` round trip keeps (`tags`, `metadata`, …).

import type { HedgeOptions, SteeringOptions } from '@infergate/core';
import { isGatewayError } from '@infergate/core';
import { caught, emulate, untilHeld } from '@infergate/emulator/testing';
import { load } from '@langchain/core/load';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { API_KEY, chunksOf, emulatedModel, recordingGateway, recordingModel } from './helpers';

/** The text of a recorded request's last message. */
function lastText(body: Record<string, unknown>): unknown {
  const messages = body.messages as { content: unknown }[];
  return messages.at(-1)?.content;
}

describe('disableStreaming', () => {
  it('makes .stream() ask without streaming and yield the whole answer as one chunk', async () => {
    const { bodies, model } = await recordingModel({ disableStreaming: true });
    expect(model.disableStreaming).toBe(true);
    const chunks = await chunksOf(model.stream('one two three four'));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.text).toBe('Echo: one two three four');
    expect(bodies.map((body) => body.stream ?? false)).toEqual([false]);
  });

  it('wins over streaming: true, as with ChatOpenAI', async () => {
    const { bodies, model } = await recordingModel({ streaming: true, disableStreaming: true });
    expect(model.streaming).toBe(false);
    expect((await model.invoke('hi')).text).toBe('Echo: hi');
    expect(bodies.map((body) => body.stream ?? false)).toEqual([false]);
  });
});

describe('maxConcurrency (LangChain’s queue)', () => {
  it('sends one call at a time with maxConcurrency: 1', async () => {
    const { gateway, model } = await emulatedModel({ maxConcurrency: 1 });
    const release = gateway.hold();
    const answers = Promise.all(['a', 'b', 'c'].map((text) => model.invoke(text)));
    await gateway.untilHeld(1);
    release();
    expect((await answers).map((answer) => answer.text)).toEqual(['Echo: a', 'Echo: b', 'Echo: c']);
    expect(gateway.counters.requests.chat).toBe(3);
    // Before the fix: 3 (the field was ignored, every call went out at once).
    expect(gateway.counters.maxInflightTotal).toBe(1);
  });

  it('rejects a call aborted while queued at once, with core’s aborted error, sending nothing', async () => {
    const { gateway, model } = await emulatedModel({ maxConcurrency: 1 });
    const release = gateway.hold();
    const first = model.invoke('first');
    await gateway.untilHeld(1);
    const stop = new AbortController();
    const queued = caught(model.invoke('queued', { signal: stop.signal }), isGatewayError);
    stop.abort();
    const error = await queued;
    expect(error.code).toBe('aborted');
    expect(error.name).toBe('AbortError');
    release();
    expect((await first).text).toBe('Echo: first');
    // A later call runs after the aborted one's turn in the queue: that turn sent nothing.
    expect((await model.invoke('later')).text).toBe('Echo: later');
    expect(gateway.counters.requests.chat).toBe(2);
  });

  it('holds a stream’s place until it is open', async () => {
    const { emulator, bodies, connection } = await recordingGateway();
    const fields = { ...connection, capabilities: ['chat', 'streaming'] };
    const model = new GatewayChatModel('community/general', { ...fields, maxConcurrency: 1 });
    const other = new GatewayChatModel('community/general', fields);
    const release = emulator.holdAnswers('chat');
    const first = chunksOf(model.stream('first'));
    await untilHeld(emulator, 1);
    const queued = chunksOf(model.stream('queued'));
    // Another model's stream, asked after it, reaches the gateway while the queued one waits.
    const unqueued = chunksOf(other.stream('unqueued'));
    await untilHeld(emulator, 2);
    // Before the fix: 'queued' went out at once.
    expect(bodies.map(lastText)).toEqual(['first', 'unqueued']);
    release();
    await Promise.all([first, queued, unqueued]);
    expect(bodies.map(lastText)).toEqual(['first', 'unqueued', 'queued']);
  });

  it('calls onFailedAttempt once per failed call, after core’s retries, and retries nothing more', async () => {
    const gateway = await emulate();
    const attempts: unknown[] = [];
    const model = new GatewayChatModel('community/general', {
      ...gateway.connection,
      maxRetries: 0,
      onFailedAttempt: (error) => {
        attempts.push(error);
      },
    });
    gateway.emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat' });
    const error = await caught(model.invoke('hi'), isGatewayError);
    expect(error.status).toBe(503);
    // Before the fix: never called. LangChain's own retries (6 by default) would send 7.
    expect(attempts).toEqual([error]);
    expect(gateway.counters.requests.chat).toBe(1);
  });
});

describe('toJSON() / load()', () => {
  it('keeps LangChain’s own fields (tags, metadata, disableStreaming, maxConcurrency), never the key', async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', {
      ...gateway.connection,
      tags: ['team-a'],
      metadata: { tenant: 't1' },
      disableStreaming: true,
      maxConcurrency: 2,
    });
    const json = JSON.stringify(model.toJSON());
    expect(json).not.toContain(API_KEY);
    const again = await load<GatewayChatModel>(json, {
      secretsMap: { INFERGATE_API_KEY: API_KEY },
      optionalImportsMap: { 'infergate/chat_models': { GatewayChatModel } },
    });
    // Before the fix: tags [] and no metadata.
    expect(again.tags).toEqual(['team-a']);
    expect(again.metadata).toMatchObject({ tenant: 't1' });
    expect(again.disableStreaming).toBe(true);
    expect(JSON.parse(json).kwargs).toMatchObject({ disable_streaming: true, max_concurrency: 2 });
  });
});

describe('.stream() aborted or timed out by its caller', () => {
  // LangChain's stream() races the call's signal itself (as for ChatOpenAI): the README says so.
  it("rejects with the signal's own reason, as LangChain's stream() raises it", async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/general', gateway.connection);
    gateway.hold();
    const stop = new AbortController();
    const aborted = caught(chunksOf(model.stream('hi', { signal: stop.signal })));
    await gateway.untilHeld(1);
    stop.abort();
    expect(await aborted).toBe(stop.signal.reason);
    expect((await aborted).name).toBe('AbortError');
  });
});

describe('the steering fields', () => {
  it('are core’s group, typed from SteeringOptions, each kept as given', async () => {
    const gateway = await emulate();
    const hedge = { afterMs: 500 };
    const model = new GatewayChatModel('community/general', {
      ...gateway.connection,
      fallbackModels: ['community/tools'],
      firstChunkTimeoutMs: 2_000,
      chunkTimeoutMs: 3_000,
      hedge,
      structuredOutput: { methods: ['tools'] },
    });
    expectTypeOf(model.hedge).toEqualTypeOf<HedgeOptions | false | undefined>();
    expectTypeOf(model.fallbackModels).toEqualTypeOf<SteeringOptions['fallbackModels']>();
    expect(model).toMatchObject({
      fallbackModels: ['community/tools'],
      firstChunkTimeoutMs: 2_000,
      chunkTimeoutMs: 3_000,
      hedge,
      structuredOutput: { methods: ['tools'] },
    });
  });
});

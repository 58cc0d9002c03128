import { caught } from '@infergate/emulator/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type {
  ChatRequest,
  ChatStream,
  ChatStreamEvent,
  ChatStreamOptions,
  GatewayError,
  GatewayEvent,
} from '../src/index';
import { hi } from './helpers';
import { wholeAnswer } from './whole-answer';

// A stream read whole before its caller took its events (stop-a-whole-stream.emulator.test.ts):
// until the caller took the answer's finish, its abort ends the call — whatever steered the call
// (a hedged run's scope leaves the caller's signal once its body is in: the stream listens to the
// signal itself). Once the caller took the finish, the answer is complete for it: the call ended
// ok, with its usage (which the gateway sends after the finish_reason), and an abort, a cancel, a
// break or a dropped stream after that change nothing.

/** The next event (undefined at the end), as a `for await` reads it. */
const next = (stream: ChatStream) =>
  stream[Symbol.asyncIterator]()
    .next()
    .then((read) => read.value as ChatStreamEvent | undefined);

const dones = (events: GatewayEvent[]) => events.filter((event) => event.type === 'done');

/** Takes events until one of `type`; returns the events taken. */
async function takeTo(stream: ChatStream, type: ChatStreamEvent['type']) {
  const taken: ChatStreamEvent[] = [];
  for (;;) {
    const event = await next(stream);
    if (event === undefined) throw new Error(`the stream ended before a ${type} event`);
    taken.push(event);
    if (event.type === type) return taken;
  }
}

const structured: ChatRequest = {
  ...hi('community/json-schema', 'x'),
  response_format: {
    type: 'json_schema',
    json_schema: { name: 'x', schema: { type: 'object' } },
  },
};

describe("a stream read whole: the caller's abort before the finish ends it, however steered", () => {
  const calls: [string, ChatRequest, ChatStreamOptions][] = [
    ['plain', hi('community/general', '[[words:12]]'), {}],
    [
      'fallbackModels',
      hi('community/general', '[[words:12]]'),
      { fallbackModels: ['community/plain'] },
    ],
    ['hedged', hi('community/general', '[[words:12]]'), { hedge: { afterMs: 60_000 } }],
    ['structured, held to its end (fallbackModels)', structured, { fallbackModels: ['x/none'] }],
    ['structured and hedged', structured, { hedge: { afterMs: 60_000 } }],
  ];
  it.each(calls)('%s', async (_, request, options) => {
    const { gateway, otel, events, controller, stream } = await wholeAnswer(request, options);
    await next(stream);
    controller.abort(new Error('Stop'));
    expect((await caught<GatewayError>(next(stream))).code).toBe('aborted');
    const error = await caught<GatewayError>(stream.result());
    expect(error.code).toBe('aborted');
    expect((error.cause as Error).message).toBe('Stop');
    expect(dones(events)).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    // Its tokens were spent: the aborted call's `done` says its usage (a structured answer's is
    // known once its check passed, which may come after the abort).
    if (!request.response_format) expect(dones(events)[0]?.usage?.outputTokens).toBe(12);
    expect(otel.spans(`chat ${request.model}`)[0]?.status.code).toBe(SpanStatusCode.ERROR);
    await gateway.untilIdle();
    await gateway.close();
  });
});

describe('a stream read whole: once the caller took the finish, the call ended ok', () => {
  const request = hi('community/general', '[[words:5]]');

  it('the call ends (ok, with its usage) when the caller takes the finish, the usage after it', async () => {
    const { gateway, otel, events, stream } = await wholeAnswer(request);
    const taken = await takeTo(stream, 'finish');
    expect(taken.filter((event) => event.type === 'usage')).toHaveLength(0);
    expect(dones(events)).toMatchObject([{ ok: true, usage: { inputTokens: 1, outputTokens: 5 } }]);
    expect(otel.spans('chat community/general')[0]?.status.code).not.toBe(SpanStatusCode.ERROR);
    // The events after it are still the caller's.
    expect((await next(stream))?.type).toBe('usage');
    expect(await next(stream)).toBeUndefined();
    expect(dones(events)).toHaveLength(1);
    await gateway.close();
  });

  it('a for await that breaks at the finish: done ok with the usage', async () => {
    const { gateway, events, stream } = await wholeAnswer(request);
    for await (const event of stream) if (event.type === 'finish') break;
    expect(dones(events)).toMatchObject([{ ok: true, usage: { outputTokens: 5 } }]);
    await gateway.close();
  });

  const stops: [string, (stream: ChatStream, controller: AbortController) => unknown][] = [
    ['the caller aborts its signal', (_stream, controller) => controller.abort(new Error('Stop'))],
    ['the caller cancels the stream', (stream) => stream.cancel(new Error('Stop'))],
  ];
  it.each(stops)('%s after the finish: nothing changes', async (_, stop) => {
    const { gateway, events, controller, stream } = await wholeAnswer(request);
    await takeTo(stream, 'finish');
    await stop(stream, controller);
    expect((await next(stream))?.type).toBe('usage');
    expect((await stream.result()).usage?.completion_tokens).toBe(5);
    expect(dones(events)).toMatchObject([{ ok: true }]);
    await gateway.close();
  });

  it.each(stops)('%s after the last delta, before the finish: aborted', async (_, stop) => {
    const { gateway, events, controller, stream } = await wholeAnswer(request);
    const taken = await takeTo(stream, 'text-delta');
    while (!taken.some((event) => event.type === 'text-delta' && event.delta.includes('word5'))) {
      taken.push(...(await takeTo(stream, 'text-delta')));
    }
    await stop(stream, controller);
    expect((await caught<GatewayError>(next(stream))).code).toBe('aborted');
    expect(dones(events)).toMatchObject([
      { ok: false, error: { code: 'aborted' }, usage: { outputTokens: 5 } },
    ]);
    await gateway.close();
  });
});

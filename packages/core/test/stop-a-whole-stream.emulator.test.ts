import { caught } from '@infergate/emulator/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { ChatStream, ChatStreamOptions, GatewayError, GatewayEvent } from '../src/index';
import { hi } from './helpers';
import { wholeAnswer } from './whole-answer';

// A short answer is often read whole, and decoded at the caller's first read, before the caller
// has taken its events (docs/gateway-protocol.md §2.5: the slot is back once the body ended). A
// Stop button must still stop it: until the caller has taken the answer's finish (or every
// event), an abort or a cancel ends the call — nothing more is handed out, every read rejects with
// `aborted`, the call's `done` and span say `aborted`. Once the caller took it, the answer is its
// own (whole-stream-ends-at-finish.emulator.test.ts: the finish, the usage after it, any steering).

/** The next event, as a `for await` reads it. */
const next = (stream: ChatStream) => stream[Symbol.asyncIterator]().next();

/** The events up to the first text delta. */
async function toFirstDelta(stream: ChatStream): Promise<void> {
  for (;;) {
    const { done, value } = await next(stream);
    if (done) throw new Error('the stream ended before any text');
    if (value.type === 'text-delta') return;
  }
}

/** A short answer read whole at once (then `extra`), its events taken up to the first text delta. */
async function wholeAnswerAtFirstDelta(extra: ChatStreamOptions) {
  const whole = await wholeAnswer(hi('community/general', '[[words:12]]'), extra);
  await toFirstDelta(whole.stream);
  return whole;
}

const dones = (events: GatewayEvent[]) => events.filter((event) => event.type === 'done');

describe.each([
  ['', {}],
  [' (decoded as it arrived: chunkTimeoutMs)', { chunkTimeoutMs: 60_000 }],
] as [string, ChatStreamOptions][])(
  'a chat stream read whole, its events not all taken%s',
  (_, extra) => {
    const stops: [string, (stream: ChatStream, controller: AbortController) => unknown][] = [
      [
        'the caller aborts its signal',
        (_stream, controller) => controller.abort(new Error('Stop')),
      ],
      ['the caller cancels the stream', (stream) => stream.cancel(new Error('Stop'))],
    ];
    it.each(stops)(
      '%s after the first delta: nothing more, every read rejects with aborted',
      async (_, stop) => {
        const { gateway, otel, events, controller, stream } = await wholeAnswerAtFirstDelta(extra);
        await stop(stream, controller);
        expect((await caught<GatewayError>(stream.readBatch())).code).toBe('aborted');
        expect((await caught<GatewayError>(next(stream))).code).toBe('aborted');
        const error = await caught<GatewayError>(stream.result());
        expect(error.code).toBe('aborted');
        expect((error.cause as Error).message).toBe('Stop');
        // One `done`, the abort's (sent at the stop); the span ended with it.
        expect(dones(events)).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
        const [span] = otel.spans('chat community/general');
        expect(span?.status.code).toBe(SpanStatusCode.ERROR);
        expect(span?.attributes['error.type']).toBe('aborted');
        // The slot was given back once, when the body ended (not cut again by the stop).
        expect(events.filter((event) => event.type === 'released')).toHaveLength(1);
        await gateway.untilIdle();
        await gateway.close();
      },
    );

    it.each(stops)(
      '%s once every event was taken: nothing changes, the answer stays',
      async (_, stop) => {
        const { gateway, otel, events, controller, stream } = await wholeAnswerAtFirstDelta(extra);
        // The rest in one batch: the caller now holds every event, though no read has said the end.
        const rest = await stream.readBatch();
        const text = rest
          ?.map((event) => (event.type === 'text-delta' ? event.delta : ''))
          .join('');
        expect(text).toMatch(/word12/);
        await stop(stream, controller);
        expect((await next(stream)).done).toBe(true);
        expect((await stream.result()).text.endsWith(text ?? '-')).toBe(true);
        expect(dones(events)).toMatchObject([{ ok: true }]);
        expect(otel.spans('chat community/general')[0]?.status.code).not.toBe(SpanStatusCode.ERROR);
        await gateway.close();
      },
    );

    it('the call ends (its done) when the caller takes the last event, not before', async () => {
      const { gateway, events, stream } = await wholeAnswerAtFirstDelta(extra);
      expect(dones(events)).toHaveLength(0);
      await stream.result();
      expect(dones(events)).toMatchObject([{ ok: true }]);
      await gateway.close();
    });
  },
);

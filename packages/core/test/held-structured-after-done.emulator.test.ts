import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import { createGatewayClient } from '../src/index';
import { driveClock, settledAfter } from './helpers';
import { askingForAPlace } from './structured-place-asks';

// docs/gateway-protocol.md §5.2 and §4.8 item 5: a structured stream held for its check (a model
// left to fall back to) reads on after `[DONE]` by the plain stream's rule: a finish or a usage a
// server sends after it is read (the late finish failed the hop and walked on to the next model, a
// second paid request), and a body kept open after `[DONE]` is not waited on once nothing more can
// come (the finish and a usage in), else for a cut request's grace at most, whether a usage was
// asked or not (`streamUsage: false`: a usage sent unasked is read too).

const USAGE = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
const chunk = (model: string, delta: object, finish: string | null = null, extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
const usageChunk = (model: string) =>
  `data: ${JSON.stringify({ id: 'c1', model, choices: [], usage: USAGE })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const json = (model: string) =>
  chunk(model, { role: 'assistant', content: '{"city":' }) + chunk(model, { content: '"Oslo"}' });
const finish = (model: string) => chunk(model, {}, 'stop');

/**
 * A client whose chat answers are `reads(model)`, one network read each (then the body ends, or
 * is left open when `open(model)`), and the models its chat requests named, in order.
 */
async function serving(
  reads: (model: string) => string[],
  open: boolean | ((model: string) => boolean) = false,
) {
  const { connection } = await emulate();
  const sent: string[] = [];
  const fetch = chatsAnsweredBy(connection, (body) => {
    sent.push(body.model);
    const queue = reads(body.model).map((read) => new TextEncoder().encode(read));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift();
        if (next !== undefined) controller.enqueue(next);
        else if (!(typeof open === 'function' ? open(body.model) : open)) controller.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
  });
  const client = createGatewayClient({ ...connection, circuitBreaker: false, fetch });
  return { client, sent };
}

const FALLBACK = { fallbackModels: ['community/json-object'] };

beforeAll(async () => {
  // The steering module loads on first use, and a module load under vitest waits on timers:
  // loaded here, on real ones, before a test drives the clock.
  const { client } = await serving((model) => [json(model), finish(model), DONE]);
  await (await client.chatStream(askingForAPlace('community/json-schema'), FALLBACK)).result();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a held structured stream, after [DONE]', () => {
  it('reads a finish sent after [DONE]: the answer, no walk to the next model', async () => {
    const { client, sent } = await serving((model) => [json(model), DONE, finish(model)]);
    const stream = await client.chatStream(askingForAPlace('community/json-schema'), FALLBACK);
    const result = await stream.result();
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(result.finishReason).toBe('stop');
    expect(sent).toEqual(['community/json-schema']);
  });

  it('reads a finish and usage after [DONE]: the held answer has the usage', async () => {
    const late = (model: string) => chunk(model, {}, 'stop', { usage: USAGE });
    const { client, sent } = await serving((model) => [json(model), DONE, late(model)]);
    const stream = await client.chatStream(askingForAPlace('community/json-schema'), FALLBACK);
    const result = await stream.result();
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(result.usage).toEqual(USAGE);
    expect(sent).toEqual(['community/json-schema']);
  });

  it('reads a usage after [DONE]: the held answer has it', async () => {
    const { client } = await serving((model) => [
      json(model),
      finish(model),
      DONE,
      usageChunk(model),
    ]);
    const stream = await client.chatStream(askingForAPlace('community/json-schema'), FALLBACK);
    const result = await stream.result();
    expect(result.usage).toEqual(USAGE);
  });
});

describe('a held structured stream whose body is kept open after [DONE]', () => {
  it('ends at once when the finish and the usage came (no clock moved)', async () => {
    const { client } = await serving(
      (model) => [json(model), finish(model), DONE, usageChunk(model)],
      true,
    );
    driveClock();
    const opened = client.chatStream(askingForAPlace('community/json-schema'), FALLBACK);
    const stream = await settledAfter(0, opened);
    const result = await settledAfter(0, stream.result());
    expect(result.usage).toEqual(USAGE);
  });

  it('with streamUsage: false reads a usage sent unasked after [DONE], then ends at once', async () => {
    const { client, sent } = await serving(
      (model) => [json(model), finish(model), DONE, usageChunk(model)],
      true,
    );
    driveClock();
    const opened = client.chatStream(askingForAPlace('community/json-schema'), {
      ...FALLBACK,
      streamUsage: false,
    });
    const stream = await settledAfter(0, opened);
    const result = await settledAfter(0, stream.result());
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(result.usage).toEqual(USAGE);
    expect(sent).toEqual(['community/json-schema']);
  });

  it('with streamUsage: false and no usage coming: read on for the grace, then the answer', async () => {
    const { client, sent } = await serving((model) => [json(model), finish(model), DONE], true);
    driveClock();
    const opened = client.chatStream(askingForAPlace('community/json-schema'), {
      ...FALLBACK,
      streamUsage: false,
    });
    let settled = false;
    void opened.finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(CUT_REQUEST_GRACE_MS - 1);
    expect(settled).toBe(false);
    const stream = await settledAfter(1, opened);
    const result = await settledAfter(0, stream.result());
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(result.usage).toBeUndefined();
    expect(sent).toEqual(['community/json-schema']);
  });

  it('a late finish after [DONE] on an open body: read, the answer ends at once', async () => {
    const { client, sent } = await serving(
      (model) => [json(model), DONE, chunk(model, {}, 'stop', { usage: USAGE })],
      true,
    );
    driveClock();
    const opened = client.chatStream(askingForAPlace('community/json-schema'), FALLBACK);
    const stream = await settledAfter(0, opened);
    const result = await settledAfter(0, stream.result());
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(sent).toEqual(['community/json-schema']);
  });

  it('[DONE] with no finish, the body kept open: read on for the grace, then the next model', async () => {
    const first = 'community/json-schema';
    const { client, sent } = await serving(
      (model) => (model === first ? [json(model), DONE] : [json(model), finish(model), DONE]),
      (model) => model === first,
    );
    driveClock();
    const opened = client.chatStream(askingForAPlace(first), FALLBACK);
    let settled = false;
    void opened.finally(() => {
      settled = true;
    });
    // Within the grace the late finish may still come: the walk has not moved on.
    await vi.advanceTimersByTimeAsync(CUT_REQUEST_GRACE_MS - 1);
    expect(settled).toBe(false);
    expect(sent).toEqual([first]);
    const stream = await settledAfter(1, opened);
    const result = await settledAfter(0, stream.result());
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(sent).toEqual([first, 'community/json-object']);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withCatalog } from '../../../test/helpers';
import { createGatewayClient } from '../../client/client';
import { isGatewayError } from '../../errors/errors';
import { READ_AHEAD_HIGH_WATER_BYTES } from '../../http/body-read-ahead';

const sse = (...data: string[]) => data.map((d) => `data: ${d}\n\n`).join('');
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ object: 'chat.completion.chunk', model: 'm', choices, ...extra });

const VALID = new TextEncoder().encode(
  sse(
    chunk([{ index: 0, delta: { role: 'assistant' } }]),
    chunk([{ index: 0, delta: { content: 'Добрий ' } }]),
    chunk([
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{"a"' } }] },
      },
    ]),
    chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] } }]),
    chunk([{ index: 0, delta: { content: 'день' } }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
    chunk([], { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
    '[DONE]',
  ),
);

/** A client whose fetch answers with the given byte pieces as an SSE body. */
function clientServing(pieces: Uint8Array[]) {
  const client = createGatewayClient({
    baseURL: `https://sse-${Math.random()}.test`,
    apiKey: 'k',
    retryBaseDelayMs: 0,
    // (Core gates each chat call against GET /models: the stub lists the model.)
    fetch: withCatalog(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const piece of pieces) controller.enqueue(piece);
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    ),
  });
  return client;
}

function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let last = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(last, point));
    last = point;
  }
  return pieces;
}

const request = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };

describe('GatewayChatStream over a byte stream', () => {
  it('property: any split of the bytes gives the same assembled answer and frees the slot', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 25 }), async (cuts) => {
        const client = clientServing(split(VALID, cuts));
        const stream = await client.chatStream(request);
        expect(await stream.result()).toEqual({
          text: 'Добрий день',
          toolCalls: [{ id: 'c', name: 'f', arguments: '{"a":1}' }],
          finishReason: 'tool_calls',
          model: 'm',
          usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        });
        expect(client.budget.isIdle).toBe(true);
      }),
      { seed: 99, numRuns: 150 },
    );
  });

  it('property: arbitrary bytes end in a result or a GatewayError, and always free the slot', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        async (noise, cuts, withValidPrefix) => {
          const bytes = withValidPrefix
            ? new Uint8Array([...VALID.subarray(0, 200), ...noise])
            : noise;
          const client = clientServing(split(bytes, cuts));
          const stream = await client.chatStream(request).catch((error: unknown) => {
            // A body that starts as JSON is no stream: chatStream rejects. Its slot is given back
            // as a cut request's (after the grace the gateway may count it): waited for.
            expect(isGatewayError(error)).toBe(true);
            return undefined;
          });
          if (stream === undefined) return client.budget.whenIdle();
          try {
            await stream.result();
          } catch (error) {
            expect(isGatewayError(error)).toBe(true);
          }
          expect(client.budget.isIdle).toBe(true);
        },
      ),
      { seed: 123, numRuns: 300 },
    );
  });
});

describe('GatewayChatStream.readBatch', () => {
  it('property: batches hold the same events, in order, as iteration, for any split', async () => {
    const expected: unknown[] = [];
    for await (const event of await clientServing([VALID]).chatStream(request))
      expected.push(event);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (cuts) => {
        const stream = await clientServing(split(VALID, cuts)).chatStream(request);
        const events: unknown[] = [];
        for (let batch = await stream.readBatch(); batch; batch = await stream.readBatch()) {
          expect(batch.length).toBeGreaterThan(0);
          events.push(...batch);
        }
        expect(events).toEqual(expected);
        expect((await stream.result()).text).toBe('Добрий день');
        expect(await stream.readBatch()).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });

  it('mixes with iteration and throws the stream error like it', async () => {
    const bytes = new TextEncoder().encode(
      sse(
        chunk([{ index: 0, delta: { content: 'a' } }], { model: '' }),
        chunk([{ index: 0, delta: { content: 'b' } }], { model: '' }),
      ),
    );
    const stream = await clientServing([bytes.subarray(0, 10), bytes.subarray(10)]).chatStream(
      request,
    );
    const first = await stream[Symbol.asyncIterator]().next();
    expect(first.value).toEqual({ type: 'text-delta', delta: 'a', choiceIndex: 0 });
    expect(await stream.readBatch()).toEqual([{ type: 'text-delta', delta: 'b', choiceIndex: 0 }]);
    const error = await stream.readBatch().catch((caught: unknown) => caught);
    expect(isGatewayError(error) && error.code).toBe('stream_incomplete');
  });

  it('gives nothing after cancel', async () => {
    const stream = await clientServing([VALID]).chatStream(request);
    await stream.cancel();
    const error = await stream.readBatch().catch((caught: unknown) => caught);
    expect(isGatewayError(error) && error.code).toBe('aborted');
  });

  it('drops the events already decoded when cancelled mid-read', async () => {
    const open = new TextEncoder().encode(
      sse(
        chunk([{ index: 0, delta: { content: 'a' } }], { model: '' }),
        chunk([{ index: 0, delta: { content: 'b' } }], { model: '' }),
        // (A whole answer: one cut short fails at its body's end, before the cancel.)
        chunk([{ index: 0, delta: {}, finish_reason: 'stop' }], { model: '' }),
      ),
    );
    const stream = await clientServing([open]).chatStream(request);
    const events = stream[Symbol.asyncIterator]();
    // One network chunk holds both events: taking the first leaves the second decoded and pending.
    expect((await events.next()).value).toMatchObject({ type: 'text-delta', delta: 'a' });
    await stream.cancel();
    const error = await stream.readBatch().catch((caught: unknown) => caught);
    expect(isGatewayError(error) && error.code).toBe('aborted');
    expect(await events.next().catch(() => 'threw')).toBe('threw');
  });
});

/**
 * A client whose stream body is fed by hand: `push` a piece, `end` it; `untilReadersDrained()`
 * resolves once the stream's readers took every piece pushed so far.
 *
 * The stream reads its body ahead of its readers (BodyReadAhead), so the body's pulls alone say
 * nothing of them; but reading ahead pauses at its high-water mark until a reader takes what it
 * buffered. `untilReadersDrained()` pushes a piece that large (a comment: no events) and waits for
 * the body's next pull: only a reader taking that piece makes the read-ahead ask for more. Its
 * readers are then past everything the test pushed, waiting for what it pushes, ends or cancels
 * next — no number of turns of the event loop assumed. (A read-ahead nobody reads resumes by
 * itself after READ_AHEAD_STALL_MS; the readers here read in microtasks, long before any timer.)
 */
function clientFedByHand() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let onPull: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      // (High-water mark 0: pulled only while the read-ahead waits for a piece.)
      pull() {
        onPull?.();
      },
    },
    { highWaterMark: 0 },
  );
  const client = createGatewayClient({
    baseURL: `https://readers-${Math.random()}.test`,
    apiKey: 'k',
    maxRetries: 0,
    fetch: withCatalog(
      async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    ),
  });
  const encoder = new TextEncoder();
  const filler = encoder.encode(`: ${'.'.repeat(READ_AHEAD_HIGH_WATER_BYTES)}\n\n`);
  return {
    client,
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    untilReadersDrained: async () => {
      const pulled = new Promise<void>((resolve) => {
        onPull = resolve;
      });
      controller.enqueue(filler);
      await pulled;
      onPull = undefined;
    },
  };
}

/** Every promise's outcome: the text, or the error's code. */
const outcomes = (promises: Promise<unknown>[]) =>
  Promise.all(
    promises.map((p) =>
      p.then(
        (value) => (typeof value === 'string' ? value : 'other'),
        (error: unknown) => (isGatewayError(error) ? error.code : String(error)),
      ),
    ),
  );

describe('several readers of one stream (each event once, none left waiting)', () => {
  const first = sse(chunk([{ index: 0, delta: { role: 'assistant', content: 'Добрий ' } }]));
  const rest = sse(
    chunk([{ index: 0, delta: { content: 'день' }, finish_reason: 'stop' }]),
    '[DONE]',
  );

  it('two result() calls pending at once both settle with the same text', async () => {
    const fed = clientFedByHand();
    fed.push(first);
    const stream = await fed.client.chatStream(request);
    const a = stream.result().then((r) => r.text);
    const b = stream.result().then((r) => r.text);
    await fed.untilReadersDrained();
    // Its [DONE] ends the answer: the readers settle on it (no end of the body wakes them).
    fed.push(rest);
    expect(await outcomes([a, b])).toEqual(['Добрий день', 'Добрий день']);
    await fed.client.budget.whenIdle();
    expect(fed.client.budget.isIdle).toBe(true);
  });

  it('result() beside for await: both settle, the iterator ends and result() has the whole text', async () => {
    const fed = clientFedByHand();
    fed.push(first);
    const stream = await fed.client.chatStream(request);
    const iterated = (async () => {
      let seen = '';
      for await (const event of stream) if (event.type === 'text-delta') seen += event.delta;
      return seen;
    })();
    const result = stream.result().then((r) => r.text);
    await fed.untilReadersDrained();
    // Its [DONE] ends the answer: the readers settle on it (no end of the body wakes them).
    fed.push(rest);
    const [text, seen] = await outcomes([result, iterated]);
    expect(text).toBe('Добрий день');
    // One queue of events: what the iterator saw is a part of the answer, in order.
    expect('Добрий день'.startsWith(seen ?? '') || 'Добрий день'.endsWith(seen ?? '')).toBe(true);
  });

  it('readers pending while cancel() runs all reject with the same aborted error', async () => {
    const fed = clientFedByHand();
    fed.push(first);
    const stream = await fed.client.chatStream(request);
    const readers = [
      stream.result(),
      stream.result(),
      (async () => {
        for await (const _ of stream) {
          // reads until the cancel
        }
        return 'ended';
      })(),
      stream.readBatch(),
    ];
    await fed.untilReadersDrained();
    // (Read before the cancel: it resolves once the call ended, the readers rejected by then.)
    const settled = outcomes(readers);
    await stream.cancel('stop');
    const results = await settled;
    // The iterator may have taken the buffered events and be waiting: it rejects like the rest.
    expect(new Set(results.filter((r) => r !== 'other'))).toEqual(new Set(['aborted']));
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await fed.client.budget.whenIdle();
    expect(fed.client.budget.isIdle).toBe(true);
  });

  it('readers pending when the body fails all reject with the same typed error', async () => {
    const fed = clientFedByHand();
    fed.push(first);
    const stream = await fed.client.chatStream(request);
    const readers = [
      stream.result(),
      stream.result(),
      stream.readBatch().then(() => stream.result()),
    ];
    await fed.untilReadersDrained();
    fed.end(); // ends before any finish_reason
    expect(await outcomes(readers)).toEqual([
      'stream_incomplete',
      'stream_incomplete',
      'stream_incomplete',
    ]);
  });
});

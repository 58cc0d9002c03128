import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import { deferred, hi, recordingClient, untilEvents } from './helpers';

// core README (a stream's end): a stream read whole ends for its caller, ok and with its usage,
// once its body has ended and the caller has taken its finish; before the finish is taken an abort
// wins. Real servers often send the usage (and [DONE]) in a later packet than the finish: the
// rule must hold then too, with or without `chunkTimeoutMs` (whose clock decodes the body as it
// comes). The emulator serves the catalog; the chat's body is one the test feeds read by read.
const MODEL = 'community/general';
const sse = (chunk: object) =>
  new TextEncoder().encode(`data: ${JSON.stringify({ id: 'c1', model: MODEL, ...chunk })}\n\n`);
const CONTENT = sse({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' } }] });
const FINISH = sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
const USAGE = sse({
  choices: [],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});
const DONE = new TextEncoder().encode('data: [DONE]\n\n');

/** A client whose chat answers with a body the test writes, read by read, after its content. */
async function fedStream(options: { chunkTimeoutMs?: number }) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const opened = deferred<ReadableStreamDefaultController<Uint8Array>>();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (!String(input).endsWith('/chat/completions')) return gatewayFetch(input, init);
    // (Its content first: the call returns its stream once the answer began.)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(CONTENT);
        opened.resolve(controller);
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  const { client, events } = recordingClient({ connection: { ...gateway.connection, fetch } });
  const abort = new AbortController();
  const stream = await client.chatStream(hi(MODEL), { ...options, signal: abort.signal });
  const body = await opened.promise;
  const has = (type: GatewayEvent['type']) => events.some((event) => event.type === type);
  return {
    stream,
    abort,
    /** The finish in a read of its own. */
    finish: () => body.enqueue(FINISH),
    /** The usage and [DONE] in a read of their own, then the body's end; resolves once released. */
    end: async () => {
      body.enqueue(USAGE);
      body.enqueue(DONE);
      body.close();
      await untilEvents(events, () => has('released'));
    },
    done: async () => {
      await untilEvents(events, () => has('done'));
      return events.filter((event) => event.type === 'done');
    },
  };
}

const WITH_USAGE = { ok: true, usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } };

describe.each([
  ['without chunkTimeoutMs', {}],
  ['with chunkTimeoutMs', { chunkTimeoutMs: 60_000 }],
])('finish and usage in separate reads, %s', (_, options) => {
  it('a caller that stops after taking the finish gets its done, ok with the usage', async () => {
    const fed = await fedStream(options);
    fed.finish();
    // (The iterator's `next()` by hand, never its `return()`: the caller just stops.)
    const parts = fed.stream[Symbol.asyncIterator]();
    let event = await parts.next();
    while (event.value?.type !== 'finish') event = await parts.next();
    await fed.end();
    // Nobody reads on and nothing is collected: the body's end ends the call.
    expect(await fed.done()).toMatchObject([WITH_USAGE]);
  });

  it('a for-await that breaks at the finish once the body ended ends ok with the usage', async () => {
    const fed = await fedStream(options);
    fed.finish();
    for await (const event of fed.stream) {
      if (event.type !== 'finish') continue;
      await fed.end();
      break;
    }
    expect(await fed.done()).toMatchObject([WITH_USAGE]);
    expect(await fed.stream.result()).toMatchObject({ usage: { total_tokens: 4 } });
  });

  it('an abort after the body ended, before the finish is taken, wins, with the usage', async () => {
    const fed = await fedStream(options);
    const parts = fed.stream[Symbol.asyncIterator]();
    await parts.next();
    fed.finish();
    await fed.end();
    fed.abort.abort(new Error('stop'));
    const [done] = await fed.done();
    expect(done).toMatchObject({ ok: false, error: { code: 'aborted' }, usage: WITH_USAGE.usage });
    await expect(parts.next()).rejects.toMatchObject({ code: 'aborted' });
  });
});

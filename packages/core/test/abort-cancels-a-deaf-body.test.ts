import { emulate } from '@infergate/emulator/testing';
import { expect, it } from 'vitest';
import { createGatewayClient, isGatewayError } from '../src/index';
import { hi } from './helpers';

// core README: any fetch works, and an abort ends the call. Not every fetch errors its response
// body on abort (mocks, polyfills, some runtimes): core must cancel the body itself, or the
// request (and the gateway's count of it) lives on. The emulator serves the catalog; a stub
// answers the chat with a body that never ends and ignores the request's signal.
const MODEL = 'community/general';
const FIRST = `data: ${JSON.stringify({ id: 'c1', model: MODEL, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] })}\n\n`;

it('aborting a stream cancels a response body that ignores the signal', async () => {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const body = { cancelled: false, reason: undefined as unknown };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (!String(input).endsWith('/chat/completions')) return gatewayFetch(input, init);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(FIRST));
      },
      // No more bytes and no end: only a cancel stops this body.
      pull: () => new Promise<void>(() => {}),
      cancel(reason) {
        body.cancelled = true;
        body.reason = reason;
      },
    });
    return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
  };
  const client = createGatewayClient({ ...gateway.connection, retryBaseDelayMs: 0, fetch });
  const abort = new AbortController();
  const stream = await client.chatStream(hi(MODEL), { signal: abort.signal });
  const parts = stream[Symbol.asyncIterator]();
  await parts.next();
  expect(body.cancelled).toBe(false);
  const stop = new Error('stop');
  abort.abort(stop);
  // The parts read before the abort may still come; then the stream fails with it.
  const error = await (async () => {
    try {
      while (!(await parts.next()).done);
    } catch (failure) {
      return failure;
    }
  })();
  expect(isGatewayError(error) && error.code).toBe('aborted');
  // The abort cancels the body before the read fails with it.
  expect(body).toEqual({ cancelled: true, reason: stop });
});

import { caught, chatCompletion, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, type GatewayError, type GatewayEvent } from '../src';
import { callUsage } from '../src/protocol/call-usage';
import { driveClock, settledAfter } from './helpers';

// docs/gateway-protocol.md §4.7: a hedged call whose first run fails for good (its structured
// answer refused) while the hedge is in flight ends with that failure; when the hedge ends LATER
// (a 200 cut mid-JSON, the call's deadline, the caller's abort, a 503), the route's last hop is
// still the failure that ended the call (README: "every error carries its route"), the hedge's end
// before it, and the refused answer's usage is counted once (`callUsage`) (rv-16steer F3).
const FIRST = 'community/general';
const HEDGE = 'community/tools';
const usage = { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 };
const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };

/** A promise and its resolver. */
function signal() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Waits for the request's abort, then rejects with its reason (a hedge that never answers). */
const hung = (init?: RequestInit) =>
  new Promise<Response>((_, reject) => {
    const abort = init?.signal;
    if (abort?.aborted) reject(abort.reason);
    abort?.addEventListener('abort', () => reject(abort.reason), { once: true });
  });

const unavailable = () =>
  new Response(JSON.stringify({ error: { code: 'provider_unavailable', message: 'x' } }), {
    status: 503,
    headers: { 'content-type': 'application/json' },
  });

const cutJson = () =>
  new Response('{"id":"c1","choices":[', { headers: { 'content-type': 'application/json' } });

/**
 * A structured call whose first model answers (a refused answer, usage 7/5) once the hedge is
 * sent; the hedge's answer is `hedgeEnd(init)`, asked only once the first run's failure was told.
 */
async function hedgeEndsAfter(
  hedgeEnd: (init?: RequestInit) => Promise<Response> | Response,
  options: { timeoutMs?: number; abortOnFailure?: boolean } = {},
) {
  const gateway = await emulate();
  // (The deadline's subject: on the driven clock, moved by the test.)
  if (options.timeoutMs !== undefined) driveClock();
  const hedgeSent = signal();
  const firstFailed = signal();
  const caller = new AbortController();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as { model?: string };
    if (body.model === FIRST) {
      await hedgeSent.promise;
      return Response.json(chatCompletion(FIRST, '{"b":1}', { usage }), {
        headers: { 'x-service-model': FIRST },
      });
    }
    if (body.model === HEDGE) {
      hedgeSent.resolve();
      await firstFailed.promise;
      return hedgeEnd(init);
    }
    return gateway.connection.fetch(input, init);
  };
  const onEvent = (event: GatewayEvent) => {
    if (event.type !== 'response' || event.code !== 'invalid_structured_output') return;
    firstFailed.resolve();
    if (options.abortOnFailure) caller.abort();
  };
  const client = createGatewayClient({ ...gateway.connection, fetch, maxRetries: 0, onEvent });
  const request = {
    model: FIRST,
    messages: [{ role: 'user' as const, content: 'give json' }],
    response_format: { type: 'json_schema' as const, json_schema: { name: 'x', schema } },
  };
  const hedged = {
    fallbackModels: [HEDGE],
    hedge: { afterMs: 1, maxExtra: 1 },
    signal: caller.signal,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const call = caught<GatewayError>(client.chat(request, hedged));
  return { gateway, call };
}

/** The route and usage of the call's error: the refused answer's hop last, counted once. */
function expectEndsWithRefusal(error: GatewayError, hedgeHop: Record<string, unknown>) {
  expect(error.code).toBe('invalid_structured_output');
  const hops = error.route?.hops ?? [];
  expect(hops).toHaveLength(2);
  expect(hops[0]).toEqual({ model: HEDGE, ...hedgeHop });
  expect(hops[1]).toMatchObject({ model: FIRST, outcome: 'failed', usage });
  expect(callUsage(error.usage, error.route)).toEqual({
    inputTokens: 7,
    outputTokens: 5,
    totalTokens: 12,
  });
}

describe("a hedged call whose first run's failure ended it before the hedge ended", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends its route with that failure when the hedge answers a 200 cut mid-JSON after', async () => {
    const { gateway, call } = await hedgeEndsAfter(cutJson);
    expectEndsWithRefusal(await call, { outcome: 'failed', reason: 'invalid_response' });
    await gateway.close();
  });

  it('ends its route with that failure when a 503 ends the hedge after', async () => {
    const { gateway, call } = await hedgeEndsAfter(unavailable);
    expectEndsWithRefusal(await call, { outcome: 'failed', reason: 'provider_unavailable' });
    await gateway.close();
  });

  it("ends its route with that failure when the caller's abort ends the hedge after", async () => {
    const { gateway, call } = await hedgeEndsAfter(hung, { abortOnFailure: true });
    expectEndsWithRefusal(await call, { outcome: 'ended', code: 'aborted' });
    await gateway.close();
  });

  it("ends its route with that failure when the call's deadline ends the hedge after", async () => {
    const { gateway, call } = await hedgeEndsAfter(hung, { timeoutMs: 500 });
    expectEndsWithRefusal(await settledAfter(500, call), { outcome: 'ended', code: 'timeout' });
    vi.useRealTimers();
    await gateway.close();
  });
});

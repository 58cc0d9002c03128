import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { hi } from './helpers';

// docs/gateway-protocol.md §5.3, §10.2 (spec §7 rule 2: a model server's errors keep that server's
// status and body). A numeric `error.code` 400, 401, 403 or 404 in a 200 is the model server's own
// failure — the gateway took the request and the key — so it is `upstream_error`, and a call with
// `fallbackModels` moves on to the next model instead of ending there as the gateway's refusal.

const FIRST = 'community/general';
const NEXT = 'community/streamer';
const numeric = (code: number) =>
  JSON.stringify({ error: { code, message: `upstream said ${code}` } });

/** A client whose chat requests to `FIRST` answer `{"error": {"code": code}}` in a 200. */
async function firstModelReporting(code: number, stream: boolean) {
  const gateway = await emulate();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (init?.method !== 'POST' || body?.model !== FIRST) {
      return gateway.connection.fetch(input, init);
    }
    const text = stream ? `data: ${numeric(code)}\n\n` : numeric(code);
    const type = stream ? 'text/event-stream' : 'application/json';
    return new Response(text, { headers: { 'content-type': type } });
  };
  return createGatewayClient({
    ...gateway.connection,
    fetch,
    maxRetries: 0,
    circuitBreaker: false,
  });
}

const FAILED_OVER = [
  { model: FIRST, outcome: 'failed', reason: 'upstream_error' },
  { model: NEXT, outcome: 'answered' },
];

describe("a model server's numeric 400/401/403/404 in a 200 moves a steered call on", () => {
  it.each([400, 401, 403, 404])(
    '%i in a whole answer: upstream_error, the next model answers',
    async (code) => {
      const client = await firstModelReporting(code, false);
      const result = await client.chat(hi(FIRST), { fallbackModels: [NEXT] });
      expect(result.answer.text).not.toBe('');
      expect(result.route.hops).toMatchObject(FAILED_OVER);
    },
  );

  it.each([400, 401, 403, 404])(
    "%i as a stream's first event: upstream_error, the next model answers",
    async (code) => {
      const client = await firstModelReporting(code, true);
      const stream = await client.chatStream(hi(FIRST), { fallbackModels: [NEXT] });
      for await (const _ of stream);
      expect((await stream.result()).text).not.toBe('');
      expect(stream.route.hops).toMatchObject(FAILED_OVER);
    },
  );

  it("a plain call reports it as upstream_error with the server's number in its raw body", async () => {
    const client = await firstModelReporting(401, false);
    const error = await client.chat(hi(FIRST)).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'upstream_error',
      status: 200,
      message: 'upstream said 401',
    });
    expect((error as { body?: string }).body).toContain('"code":401');
  });
});

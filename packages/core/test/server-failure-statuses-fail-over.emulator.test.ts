// docs/gateway-protocol.md §4.7 rule 3, §10.5: every status the retry policy retries as the
// server's failure (408, 409, 502–504, a model server's or proxy's 520–529) moves a call with
// `fallbackModels` to its next model at once and counts for that model's breaker — one rule with
// the retry policy's, not a list of its own (rv-fix2 F1). A 500 and a 429 stay as they were. And
// a `Retry-After` above `maxRetryAfterMs` makes any retried status not retryable (rv-fix2 F7).
import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { isWorthNewCall } from '../src/internal';
import { caught, clientOn, hi } from './helpers';

const GENERAL = 'community/general';
const PLAIN = 'community/plain';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A gateway whose `general` answers `status` (with `headers`) to every chat; the models asked. */
async function generalAnswering(status: number, headers: Record<string, string> = {}) {
  const gateway = await emulate();
  closers.push(() => gateway.close());
  const asked: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.endsWith('/chat/completions')) return gateway.fetch(input, init);
    const { model } = JSON.parse(String(init?.body)) as { model: string };
    asked.push(model);
    if (model !== GENERAL) return gateway.fetch(input, init);
    return new Response(JSON.stringify({ error: { message: `upstream ${status}` } }), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  };
  return { gateway, fetch, asked };
}

describe('a server-failure status fails over at once', () => {
  it.each([408, 409, 502, 503, 504, 520, 522, 529])(
    '%i: the next listed model answers, the first asked once',
    async (status) => {
      const { gateway, fetch, asked } = await generalAnswering(status);
      const client = clientOn(gateway, { fetch, circuitBreaker: false });
      const { servedModel, route } = await client.chat(hi(GENERAL), { fallbackModels: [PLAIN] });
      expect(servedModel).toBe(PLAIN);
      expect(asked).toEqual([GENERAL, PLAIN]);
      expect(route.hops[0]).toMatchObject({ model: GENERAL, outcome: 'failed' });
    },
  );

  it('500 is retried on the same model first, as before', async () => {
    const { gateway, fetch, asked } = await generalAnswering(500);
    const client = clientOn(gateway, { fetch, circuitBreaker: false, maxRetries: 1 });
    await client.chat(hi(GENERAL), { fallbackModels: [PLAIN] }).catch(() => undefined);
    expect(asked.slice(0, 2)).toEqual([GENERAL, GENERAL]);
  });
});

describe("a model's breaker counts them", () => {
  it.each([529, 503])('%i to every call: skipped after 3 failures in a row', async (status) => {
    const { gateway, fetch, asked } = await generalAnswering(status);
    const client = clientOn(gateway, { fetch, maxRetries: 0 });
    for (let call = 0; call < 6; call++) {
      await client.chat(hi(GENERAL), { fallbackModels: [PLAIN] });
    }
    expect(asked.filter((model) => model === GENERAL)).toHaveLength(3);
    expect(asked.filter((model) => model === PLAIN)).toHaveLength(6);
  });
});

describe('a Retry-After above maxRetryAfterMs, whatever the retried status', () => {
  it.each([408, 409, 503, 529, 429])(
    '%i asking for an hour: thrown at once, not retryable, no new call now',
    async (status) => {
      const { gateway, fetch, asked } = await generalAnswering(status, { 'retry-after': '3600' });
      const client = clientOn(gateway, { fetch, maxRetries: 2 });
      const error = await caught(() => client.chat(hi(GENERAL)));
      expect(error).toMatchObject({ status, retryAfterMs: 3_600_000, isRetryable: false });
      expect(isWorthNewCall(error)).toBe(false);
      expect(asked).toEqual([GENERAL]);
    },
  );
});

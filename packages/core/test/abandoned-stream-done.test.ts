import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRACED_DIST } from './collect-until';
import { runWithGc } from './helpers';

/**
 * Runs in a child process with --expose-gc: streams are opened with an `onEvent` hook (the OTel
 * handler and a plain one), dropped unread and collected. Each call must end with a `done` event,
 * so that its span ends and the handler forgets it (else a handler keeping state per call leaks).
 */
const SCRIPT = `${TRACED_DIST}const events = [];
const chunk = new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\\n\\n');
const finished = new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"y"},"finish_reason":"stop"}]}\\n\\ndata: [DONE]\\n\\n');
// An endless body (cancelled by the finalizer) and a complete one (already released when collected).
let endless = true;
const fetch = async () => {
  const mine = endless;
  endless = false;
  let cancelled = false;
  return new Response(new ReadableStream({
    start: (c) => { if (!mine) { c.enqueue(finished); c.close(); } },
    pull: (c) => mine ? new Promise((resolve) => setTimeout(() => { if (!cancelled) c.enqueue(chunk); resolve(); }, 2)) : undefined,
    cancel: () => { cancelled = true; },
  }), { headers: { 'content-type': 'text/event-stream' } });
};
const client = createGatewayClient({
  baseURL: 'https://unreachable.test/v1', apiKey: 'k', fetch,
  onEvent: (event) => { events.push(event); otel(event); },
});
const open = async () => {
  // (Capabilities given: core's gate reads no catalog from this stub, which serves streams only.)
  await client.chatStream({ model: 'community/general', messages: [{ role: 'user', content: 'hi' }] },
  { capabilities: ['chat', 'streaming'] });
};
await open();
await open();
const done = () => events.filter((e) => e.type === 'done');
await collectUntil(() => done().length === 2 && client.budget.active === 0);
console.log(JSON.stringify({
  active: client.budget.active,
  released: events.filter((e) => e.type === 'released').length,
  responses: events.filter((e) => e.type === 'response').map((e) => ({ ok: e.ok, code: e.code }))
    .sort((a, b) => String(a.code).localeCompare(String(b.code))),
  done: done().map((e) => ({ ok: e.ok, error: e.error })),
  spans: exporter.getFinishedSpans().filter((s) => s.name.startsWith('chat')).map((s) => ({
    abandoned: s.attributes['infergate.abandoned'], error: s.attributes['error.type'],
  })),
}));
process.exit(0);
`;

describe('a stream dropped unread (its call still ends with a done event)', () => {
  it('ends its call once collected: a done event, and the OTel span ends', async () => {
    const outcome = await runWithGc(SCRIPT, join(import.meta.dirname, '..'));
    const abandoned = { ok: false, error: { code: 'abandoned' } };
    expect(outcome).toEqual({
      active: 0,
      released: 2,
      // The endless one's attempt failed, its body cut when it was collected (\`aborted\`); the
      // complete one's succeeded (decoded as its body ended). Both calls were abandoned.
      responses: [{ ok: false, code: 'aborted' }, { ok: true }],
      done: [abandoned, abandoned],
      spans: [
        { abandoned: true, error: 'abandoned' },
        { abandoned: true, error: 'abandoned' },
      ],
    });
  });
});

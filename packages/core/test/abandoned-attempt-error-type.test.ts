import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRACED_DIST } from './collect-until';
import { runWithGc } from './helpers';

/**
 * In a child process with --expose-gc: a stream whose whole body came in (its slot given back) is
 * dropped unread and collected. Its attempt succeeded (the body was decoded as it ended: no error,
 * status unset); the call, whose caller never took the finish, is `abandoned` — never `unknown`.
 */
const SCRIPT = `${TRACED_DIST}let ended = false;
const whole = new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"y"},"finish_reason":"stop"}]}\\n\\ndata: [DONE]\\n\\n');
const fetch = async () => new Response(new ReadableStream({ start: (c) => { c.enqueue(whole); c.close(); } }),
  { headers: { 'content-type': 'text/event-stream' } });
const client = createGatewayClient({
  baseURL: 'https://unreachable.test/v1', apiKey: 'k', fetch,
  onEvent: (event) => { otel(event); if (event.type === 'done') ended = true; },
});
await client.chatStream({ model: 'community/general', messages: [{ role: 'user', content: 'hi' }] },
  { capabilities: ['chat', 'streaming'] });
await collectUntil(() => ended);
console.log(JSON.stringify(exporter.getFinishedSpans().filter((s) => s.name !== 'infergate.queue')
  .map((s) => ({ name: s.name, error: s.attributes['error.type'], status: s.status.code }))));
process.exit(0);
`;

describe('a stream dropped unread: its attempt span', () => {
  it('is ok, while the call span says abandoned (not unknown)', async () => {
    const spans = await runWithGc(SCRIPT, join(import.meta.dirname, '..'));
    expect(spans).toEqual([
      { name: 'POST /chat/completions', status: 0 },
      { name: 'chat community/general', error: 'abandoned', status: 2 },
    ]);
  });
});

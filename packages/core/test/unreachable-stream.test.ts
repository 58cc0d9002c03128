import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLLECT_UNTIL } from './collect-until';
import { runWithGc } from './helpers';

const dist = join(import.meta.dirname, '..', 'dist', 'index.js');

/**
 * Runs in a child process with --expose-gc: an endless stream is opened and dropped unread; the
 * garbage collector's finalizer must cancel it and give the slot back. `withSignal`: its call had
 * a caller's signal that stays alive (the stream listens to it for the caller's abort).
 */
const script = (withSignal: boolean) => `${COLLECT_UNTIL}
const { createGatewayClient } = await import(${JSON.stringify(dist)});
const chunk = new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\\n\\n');
let cancelled = false;
const fetch = async () => new Response(new ReadableStream({
  pull: (c) => new Promise((resolve) => setTimeout(() => { if (!cancelled) c.enqueue(chunk); resolve(); }, 2)),
  cancel: () => { cancelled = true; },
}), { headers: { 'content-type': 'text/event-stream' } });
const client = createGatewayClient({ baseURL: 'https://unreachable.test/v1', apiKey: 'k', fetch });
const controller = new AbortController();
globalThis.keep = controller;
await (async () => {
  // (Capabilities given: core's gate reads no catalog from this stub, which serves streams only.)
  await client.chatStream({ model: 'community/general', messages: [{ role: 'user', content: 'hi' }] },
  { capabilities: ['chat', 'streaming']${withSignal ? ', signal: controller.signal' : ''} });
})();
await collectUntil(() => client.budget.active === 0 && cancelled);
console.log(JSON.stringify({ active: client.budget.active, cancelled }));
process.exit(0);
`;

describe('an unreachable stream (a dropped stream must not keep its slot)', () => {
  it.each([
    ['', false],
    [", its caller's signal alive", true],
  ])(
    'is cancelled by the finalizer%s: its endless body stops and the slot comes back',
    async (_, withSignal) => {
      expect(await runWithGc(script(withSignal))).toEqual({ active: 0, cancelled: true });
    },
  );
});

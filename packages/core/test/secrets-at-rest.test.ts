import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLLECT_UNTIL } from './collect-until';
import { runWithGc } from './helpers';

const dist = JSON.stringify(join(import.meta.dirname, '..', 'dist', 'index.js'));
const internal = JSON.stringify(join(import.meta.dirname, '..', 'dist', 'internal.js'));

/**
 * Runs in a child process with --expose-gc: a client registers its key for redaction; nothing of
 * globalThis (inspected with showHidden, symbols included) shows the key; the client is dropped and
 * collected, and nothing keeps its key (a global set of keys would keep every key for good).
 */
const SCRIPT = `${COLLECT_UNTIL}
const { inspect } = await import('node:util');
const { createGatewayClient } = await import(${dist});
const { redactKey } = await import(${internal});
const KEY = 'sk-outlives-' + 'x7Qp2Lm9Zr4';
const registry = globalThis[Symbol.for('@infergate/core.redactors')];
// redactKey without a key: what the live clients' redactors know.
const redacted = () => !redactKey('k=' + KEY).includes(KEY);
let client = createGatewayClient({ baseURL: 'https://outlives.test/v1', apiKey: KEY, fetch: async () => new Response('{"error":{"code":"invalid_api_key","message":"bad ' + KEY + '"}}', { status: 401, headers: { 'content-type': 'application/json' } }) });
// An error echoing the key, so that every cache redaction may fill is filled.
// (Capabilities given: the chat request is the one that echoes the key, not a catalog read.)
await client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { capabilities: ['chat'] }).catch(() => {});
const seen = [inspect(globalThis, { showHidden: true, depth: 8 })];
for (const symbol of Object.getOwnPropertySymbols(globalThis)) {
  seen.push(inspect(globalThis[symbol], { showHidden: true, depth: 12 }));
}
const text = seen.join('\\n');
const whileAlive = {
  redacted: redacted(),
  live: registry.live.size,
  keyInGlobalState: text.includes(KEY) || text.includes(btoa(KEY).slice(4, 16)),
};
client = undefined;
await collectUntil(() => registry.live.size === 0);
console.log(JSON.stringify({ whileAlive, afterCollected: { live: registry.live.size, redacted: redacted() } }));
process.exit(0);
`;

/**
 * A stream outlives the client that opened it (a client made per request and dropped while its
 * answer still streams): an error event that echoes the key, read after the client was collected,
 * is still redacted, because the open stream keeps its transport, and so its redactor, alive.
 */
const STREAM_SCRIPT = `${COLLECT_UNTIL}
const { createGatewayClient } = await import(${dist});
const KEY = 'sk-streamed-' + 'q8Wn3Rt6Yb1';
const registry = globalThis[Symbol.for('@infergate/core.redactors')];
const encoder = new TextEncoder();
let push;
const body = new ReadableStream({
  start(controller) {
    push = (text) => controller.enqueue(encoder.encode(text));
    push('data: {"id":"1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}\\n\\n');
    globalThis.finish = () => {
      push('data: {"error":{"code":"upstream_error","message":"upstream echoed ' + KEY + '"}}\\n\\n');
      controller.close();
    };
  },
});
let client = createGatewayClient({ baseURL: 'https://streamed.test/v1', apiKey: KEY, maxRetries: 0,
  fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }) });
// (Capabilities given: core's gate reads no catalog from this stub, which serves streams only.)
const stream = await client.chatStream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] },
  { capabilities: ['chat', 'streaming'] });
// A second client, of another key, dropped with the first: once its redactor is collected, a
// collection has run and its finalizers too, so the streaming client's redactor was kept, not missed.
let other = createGatewayClient({ baseURL: 'https://streamed.test/v1', apiKey: 'sk-other-key-0', fetch: async () => new Response('') });
const liveBoth = registry.live.size;
client = undefined;
other = undefined;
await collectUntil(() => registry.live.size < liveBoth);
const liveWhileStreaming = registry.live.size;
globalThis.finish();
const error = await stream.result().then(() => undefined, (caught) => caught);
const text = String(error?.message) + JSON.stringify(error);
console.log(JSON.stringify({ liveWhileStreaming, failed: error !== undefined, keyShown: text.includes(KEY) }));
process.exit(0);
`;

describe('a client’s key after the client is gone (nothing keeps it)', () => {
  it('is still redacted from a stream the dropped client opened', async () => {
    expect(await runWithGc(STREAM_SCRIPT)).toEqual({
      liveWhileStreaming: 1,
      failed: true,
      keyShown: false,
    });
  });

  it('is forgotten: nothing registered outlives the client', async () => {
    expect(await runWithGc(SCRIPT)).toEqual({
      whileAlive: { redacted: true, live: 1, keyInGlobalState: false },
      // Nobody holds the key any more: there is nothing left to redact it with.
      afterCollected: { live: 0, redacted: false },
    });
  });
});

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const dist = (...path: string[]) => JSON.stringify(join(import.meta.dirname, '..', ...path));

/**
 * Runs in a child process with --expose-gc, as edge-runtime is (no `AbortSignal.any`: core's
 * joined signal forwards the caller's abort by a listener on it). 10 doStream streams are read one part,
 * then dropped (never read on, never cancelled); the garbage collector is run, with a turn of the
 * event loop for the finalizers, until the caller's signal has no listener left (or 20 s pass).
 * (streamText reads a stream to its end itself: only doStream's can be dropped unfinished.)
 * Then a stream still read stops at the caller's abort: the forwarding still works.
 */
const script = `
delete AbortSignal.any;
const { getEventListeners } = await import('node:events');
const { emulate } = await import(${dist('node_modules', '@infergate', 'emulator', 'dist', 'testing.js')});
const { createGateway } = await import(${dist('dist', 'index.js')});
const gateway = await emulate({ as: 'http' });
const model = createGateway(gateway.connection)('community/general');
const stream = async (text, signal) => (await model.doStream({
  prompt: [{ role: 'user', content: [{ type: 'text', text }] }],
  abortSignal: signal,
})).stream;
const caller = new AbortController();
const listeners = () => getEventListeners(caller.signal, 'abort').length;
await (async () => {
  for (let i = 0; i < 10; i++) {
    const parts = await stream('abandoned ' + i + ' ' + 'x'.repeat(50), caller.signal);
    await parts.getReader().read();
  }
})();
const abandoned = listeners();
await gateway.untilIdle();
const end = performance.now() + 20_000;
while (listeners() > 0 && performance.now() < end) {
  globalThis.gc();
  await new Promise((resolve) => setImmediate(resolve));
}
const collected = listeners();
gateway.emulator.injectFault({ fault: 'stall_stream', afterChunks: 2, ms: 60_000 });
const held = await stream('held', caller.signal);
const reading = (async () => {
  let last;
  for await (const part of held) last = part.type === 'error' ? String(part.error?.message ?? part.error) : part.type;
  return last;
})();
await new Promise((resolve) => setImmediate(resolve));
caller.abort(new Error('shutting down'));
const abort = await reading.then((last) => 'ended with ' + last, (error) => String(error?.message ?? error));
console.log(JSON.stringify({ abandoned, collected, abort }));
process.exit(0);
`;

describe('an AI SDK stream (doStream) its consumer drops, where the runtime has no AbortSignal.any', () => {
  it("leaves no listener on the caller's long-lived signal once collected", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--input-type=module', '-e', script],
      { timeout: 50_000 },
    );
    const { abandoned, collected, abort } = JSON.parse(stdout.trim());
    // (Each dropped stream listened until it was collected.)
    expect(abandoned).toBeGreaterThan(0);
    expect(collected).toBe(0);
    expect(abort).toMatch(/shutting down|abort/i);
  });
});

import { join } from 'node:path';
import { droppedStreamsCheck } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';

describe('an AI SDK stream (doStream) its consumer drops, where the runtime has no AbortSignal.any', () => {
  it("leaves no listener on the caller's long-lived signal once collected", async () => {
    // The kit's check in a child process without `AbortSignal.any`, as edge-runtime is: 10 doStream
    // streams read one part and dropped, collected, then a stream still read aborted by the caller.
    // (streamText reads a stream to its end itself: only doStream's can be dropped unfinished.)
    const { abandoned, collected, abort } = await droppedStreamsCheck({
      packageDir: join(import.meta.dirname, '..'),
      model: `(adapter, connection) => adapter.createGateway(connection)('community/general')`,
      stream: `async (model, text, signal) => (await model.doStream({
        prompt: [{ role: 'user', content: [{ type: 'text', text }] }],
        abortSignal: signal,
      })).stream`,
      partName: `(part) => part.type === 'error' ? String(part.error?.message ?? part.error) : part.type`,
    });
    // (Each dropped stream listened until it was collected.)
    expect(abandoned).toBeGreaterThan(0);
    expect(collected).toBe(0);
    expect(abort).toMatch(/shutting down|abort/i);
  });
});

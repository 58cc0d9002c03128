import { join } from 'node:path';
import { droppedStreamsCheck } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';

describe('a LangChain stream its consumer drops, where the runtime has no AbortSignal.any', () => {
  it("leaves no listener on the caller's long-lived signal once collected", async () => {
    // The kit's check in a child process without `AbortSignal.any`, as edge-runtime is: 10 streams
    // read one chunk and dropped, collected, then a stream still read aborted by the caller.
    const { abandoned, collected, abort } = await droppedStreamsCheck({
      packageDir: join(import.meta.dirname, '..'),
      model: `(adapter, connection) => new adapter.GatewayChatModel({ ...connection, model: 'community/general' })`,
      stream: `(model, text, signal) => model.stream(text, { signal })`,
    });
    // (Each dropped stream listened until it was collected.)
    expect(abandoned).toBeGreaterThan(0);
    expect(collected).toBe(0);
    expect(abort).toMatch(/shutting down|abort/i);
  });
});

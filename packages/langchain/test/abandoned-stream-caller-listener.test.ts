import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { droppedStreamsCheck } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';

/**
 * The kit's check in a child process without `AbortSignal.any`, as edge-runtime is: 10 streams
 * read one chunk and dropped, collected, then a stream still read aborted by the caller.
 */
const args = droppedStreamsCheck({
  packageDir: join(import.meta.dirname, '..'),
  model: `(adapter, connection) => new adapter.GatewayChatModel({ ...connection, model: 'community/general' })`,
  stream: `(model, text, signal) => model.stream(text, { signal })`,
});

describe('a LangChain stream its consumer drops, where the runtime has no AbortSignal.any', () => {
  it("leaves no listener on the caller's long-lived signal once collected", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 50_000 });
    const { abandoned, collected, abort } = JSON.parse(stdout.trim());
    // (Each dropped stream listened until it was collected.)
    expect(abandoned).toBeGreaterThan(0);
    expect(collected).toBe(0);
    expect(abort).toMatch(/shutting down|abort/i);
  });
});

/**
 * The HTTP server's idle sweep measures idleness on the monotonic clock: an NTP step or a resumed
 * VM (the wall clock moved by minutes) neither closes live sessions nor keeps idle ones open.
 */
import { steppedClock } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { harnessOfFile, postJsonRpc, rawSession, serverWithManualSweep } from './harness';

const harness = harnessOfFile();
afterEach(() => {
  vi.useRealTimers();
});

/** A server whose idle sweep the test runs itself, and one session opened on it with raw HTTP. */
async function sessionWithManualSweep(idleMs: number) {
  const { server, sweep } = await serverWithManualSweep(harness().mcp, idleMs);
  const session = await rawSession(server.url);
  expect(server.sessions).toBe(1);
  /** A request on the session: 200 while it is open, 404 once closed. */
  const listTools = () => postJsonRpc(server.url, session, { id: 2, method: 'tools/list' });
  return { server, sweep, listTools };
}

describe('idle MCP sessions under a stepped wall clock', () => {
  it('a jump of the wall clock ahead closes no live session', async () => {
    const { server, sweep, listTools } = await sessionWithManualSweep(30_000);
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 3_600_000);
      sweep();
      // Nothing to wait for: a sweep starts any close at once, so the next request finds it open.
      const after = await listTools();
      expect(after.status).toBe(200);
      await after.body?.cancel();
      expect(server.sessions).toBe(1);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });

  it('a step of the wall clock back keeps no idle session open', async () => {
    const { server, sweep, listTools } = await sessionWithManualSweep(30_000);
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() - 3_600_000);
      // The session stays idle for longer than its 30 s on every clock but the wall clock.
      const monotonic = steppedClock();
      onTestFinished(() => monotonic.restore());
      monotonic.ahead(60_000);
      sweep();
      await vi.waitFor(() => expect(server.sessions).toBe(0), { timeout: 10_000 });
      expect((await listTools()).status).toBe(404);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });
});

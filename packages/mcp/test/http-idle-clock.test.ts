/**
 * The HTTP server's idle sweep measures idleness on the monotonic clock: an NTP step or a resumed
 * VM (the wall clock moved by minutes) neither closes live sessions nor keeps idle ones open.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHttpServer } from '../src/index';
import { type Harness, RAW_INITIALIZE, startHarness } from './harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
/** An HTTP server whose idle sweep the test runs itself (its interval is `idleMs` here). */
async function serverWithManualSweep(idleMs: number) {
  const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
  const server = await startHttpServer(harness.mcp, { port: 0, sessionIdleMs: idleMs });
  const call = setIntervalSpy.mock.calls.find(([, delay]) => delay === idleMs);
  expect(call, 'the idle sweep is armed').toBeDefined();
  const sweep = call![0] as () => void;
  const init = await fetch(server.url, { method: 'POST', headers: HEADERS, body: RAW_INITIALIZE });
  expect(init.status).toBe(200);
  await init.body?.cancel();
  expect(server.sessions).toBe(1);
  return { server, sweep };
}

describe('idle MCP sessions under a stepped wall clock', () => {
  it('a jump of the wall clock ahead closes no live session', async () => {
    const { server, sweep } = await serverWithManualSweep(30_000);
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 3_600_000);
      sweep();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.sessions).toBe(1);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });

  it('a step of the wall clock back keeps no idle session open', async () => {
    const { server, sweep } = await serverWithManualSweep(200);
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() - 3_600_000);
      // The session stays idle for longer than its 200 ms on every clock but the wall clock.
      await new Promise((resolve) => setTimeout(resolve, 300));
      sweep();
      await vi.waitFor(() => expect(server.sessions).toBe(0), { timeout: 10_000 });
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });
});

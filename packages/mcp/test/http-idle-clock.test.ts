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
  const session = init.headers.get('mcp-session-id')!;
  /** A request on the session: 200 while it is open, 404 once closed. */
  const listTools = () =>
    fetch(server.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
  return { server, sweep, listTools };
}

/** Moves the monotonic clock (core's `performance.now()` seam) ahead by `ms`. */
function monotonicAhead(ms: number): void {
  const now = performance.now.bind(performance);
  vi.spyOn(performance, 'now').mockImplementation(() => now() + ms);
}

describe('idle MCP sessions under a stepped wall clock', () => {
  it('a jump of the wall clock ahead closes no live session', async () => {
    const { server, sweep, listTools } = await serverWithManualSweep(30_000);
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
    const { server, sweep, listTools } = await serverWithManualSweep(30_000);
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() - 3_600_000);
      // The session stays idle for longer than its 30 s on every clock but the wall clock.
      monotonicAhead(60_000);
      sweep();
      await vi.waitFor(() => expect(server.sessions).toBe(0), { timeout: 10_000 });
      expect((await listTools()).status).toBe(404);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });
});

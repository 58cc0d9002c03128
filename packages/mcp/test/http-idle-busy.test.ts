/**
 * A session is idle only while nothing is in flight on it (no tool call running, no GET stream
 * open), counted from the end of its last request or stream; a session closed with requests in
 * flight answers them with an error instead of ending their streams in silence.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it, vi } from 'vitest';
import { startHttpServer } from '../src/index';
import { harnessOfFile, RAW_INITIALIZE, textOf } from './harness';

const harness = harnessOfFile();

const IDLE_MS = 30_000;
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const ASK = { model: 'community/plain', prompt: 'slow' };

/** Moves the monotonic clock (core's `performance.now()` seam) ahead by `ms`, again and again. */
function monotonicClock() {
  const now = performance.now.bind(performance);
  let offset = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => now() + offset);
  return {
    ahead(ms: number) {
      offset += ms;
    },
  };
}

/** An HTTP server whose idle sweep the test runs itself. */
async function serverWithManualSweep() {
  const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
  const server = await startHttpServer(harness().mcp, { port: 0, sessionIdleMs: IDLE_MS });
  const call = setIntervalSpy.mock.calls.find(([, delay]) => delay === IDLE_MS);
  expect(call, 'the idle sweep is armed').toBeDefined();
  return { server, sweep: call![0] as () => void };
}

/** A session opened with raw HTTP (no GET stream, unlike the SDK's client). */
async function rawSession(url: string): Promise<string> {
  const init = await fetch(url, { method: 'POST', headers: HEADERS, body: RAW_INITIALIZE });
  expect(init.status).toBe(200);
  await init.body?.cancel();
  return init.headers.get('mcp-session-id')!;
}

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: 'idle-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('the HTTP idle sweep', () => {
  it('keeps a session whose tool call is still running; the call gets its answer', async () => {
    const clock = monotonicClock();
    const { server, sweep } = await serverWithManualSweep();
    const { emulator } = harness().gateway;
    const release = emulator.holdAnswers('chat');
    try {
      const client = await sdkClient(server.url);
      const call = client.callTool({ name: 'ask_model', arguments: ASK }, undefined, {
        timeout: 20_000,
      });
      await harness().gateway.untilHeld(1);
      clock.ahead(2 * IDLE_MS);
      sweep();
      release();
      expect(textOf(await call)).toBe('Echo: slow');
      expect(server.sessions).toBe(1);
      await client.close();
    } finally {
      release();
      await server.close();
    }
  });

  it('counts idleness from the end of the last request, not its start (no stream open)', async () => {
    const clock = monotonicClock();
    const { server, sweep } = await serverWithManualSweep();
    const { emulator } = harness().gateway;
    const release = emulator.holdAnswers('chat');
    try {
      const session = await rawSession(server.url);
      const answer = fetch(server.url, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': session },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'ask_model', arguments: ASK },
        }),
      });
      await harness().gateway.untilHeld(1);
      clock.ahead(2 * IDLE_MS);
      sweep();
      release();
      const response = await answer;
      expect(await response.text()).toContain('Echo: slow');
      // Answered just now: not idle yet, however long ago the call started.
      sweep();
      expect(server.sessions).toBe(1);
      clock.ahead(IDLE_MS);
      await vi.waitFor(
        () => {
          sweep();
          expect(server.sessions).toBe(0);
        },
        { timeout: 10_000 },
      );
    } finally {
      release();
      await server.close();
    }
  });

  it('keeps a session whose client holds its GET stream open, and closes it once idle after', async () => {
    const clock = monotonicClock();
    const { server, sweep } = await serverWithManualSweep();
    try {
      const session = await rawSession(server.url);
      const listening = new AbortController();
      const stream = await fetch(server.url, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': session },
        signal: listening.signal,
      });
      expect(stream.status).toBe(200);
      clock.ahead(2 * IDLE_MS);
      sweep();
      const list = await fetch(server.url, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': session },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      });
      expect(list.status).toBe(200);
      await list.body?.cancel();
      listening.abort();
      // Once the server has seen the stream end, the session is idle for IDLE_MS from then.
      await vi.waitFor(
        () => {
          clock.ahead(IDLE_MS);
          sweep();
          expect(server.sessions).toBe(0);
        },
        { timeout: 10_000 },
      );
    } finally {
      await server.close();
    }
  });

  it('a session closed with a tool call in flight answers it with an error, not silence', async () => {
    const { server } = await serverWithManualSweep();
    const { emulator } = harness().gateway;
    const release = emulator.holdAnswers('chat');
    try {
      const client = await sdkClient(server.url);
      const call = client.callTool({ name: 'ask_model', arguments: ASK }, undefined, {
        timeout: 20_000,
      });
      await harness().gateway.untilHeld(1);
      await server.close();
      await expect(call).rejects.toThrow(
        'Session closed before this request was answered: the server is shutting down',
      );
      await client.close();
    } finally {
      release();
      await server.close();
      await harness().gateway.untilIdle();
    }
  });
});

/**
 * A session is idle only while nothing is in flight on it (no tool call running, no GET stream
 * open), counted from the end of its last request or stream; a session closed with requests in
 * flight answers them with an error instead of ending their streams in silence.
 */
import { type SteppedClock, steppedClock } from '@infergate/emulator/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningHttpServer } from '../src/index';
import { harnessOfFile, postJsonRpc, rawSession, serverWithManualSweep, textOf } from './harness';

const harness = harnessOfFile();

const IDLE_MS = 30_000;
const ASK = { model: 'community/plain', prompt: 'slow' };

/**
 * Each test's HTTP server, whose idle sweep the test runs itself (`sweep()`), on a monotonic clock
 * it moves by hand (`clock.ahead(ms)`, core's `performance.now()` seam), the gateway holding chat
 * answers until `release()` (idempotent) or the test's end, which closes the server and waits for
 * the gateway to idle.
 */
const held = {} as {
  server: RunningHttpServer;
  sweep: () => void;
  clock: SteppedClock;
  release: () => void;
};
beforeEach(async () => {
  held.clock = steppedClock();
  Object.assign(held, await serverWithManualSweep(harness().mcp, IDLE_MS));
  held.release = harness().gateway.hold('chat');
});
afterEach(async () => {
  held.release();
  await held.server.close();
  await harness().gateway.untilIdle();
  held.clock.restore();
});

/** An SDK client (it opens its GET stream) and its `ask_model` call, once the gateway holds it. */
async function heldAskCall(url: string) {
  const client = new Client({ name: 'idle-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const call = client.callTool({ name: 'ask_model', arguments: ASK }, undefined, {
    timeout: 20_000,
  });
  await harness().gateway.untilHeld(1);
  return { client, call };
}

describe('the HTTP idle sweep', () => {
  it('keeps a session whose tool call is still running; the call gets its answer', async () => {
    const { server, sweep, clock, release } = held;
    const { client, call } = await heldAskCall(server.url);
    clock.ahead(2 * IDLE_MS);
    sweep();
    release();
    expect(textOf(await call)).toBe('Echo: slow');
    expect(server.sessions).toBe(1);
    await client.close();
  });

  it('counts idleness from the end of the last request, not its start (no stream open)', async () => {
    const { server, sweep, clock, release } = held;
    const session = await rawSession(server.url);
    const answer = postJsonRpc(server.url, session, {
      id: 2,
      method: 'tools/call',
      params: { name: 'ask_model', arguments: ASK },
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
  });

  it('keeps a session whose client holds its GET stream open, and closes it once idle after', async () => {
    const { server, sweep, clock } = held;
    const session = await rawSession(server.url);
    const listening = new AbortController();
    const stream = await fetch(server.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': session['mcp-session-id']! },
      signal: listening.signal,
    });
    expect(stream.status).toBe(200);
    clock.ahead(2 * IDLE_MS);
    sweep();
    const list = await postJsonRpc(server.url, session, { id: 3, method: 'tools/list' });
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
  });

  it('a session closed with a tool call in flight answers it with an error, not silence', async () => {
    const { server } = held;
    const { client, call } = await heldAskCall(server.url);
    await server.close();
    await expect(call).rejects.toThrow(
      'Session closed before this request was answered: the server is shutting down',
    );
    await client.close();
  });
});

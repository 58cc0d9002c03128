/**
 * A request its client cancelled (`notifications/cancelled`) is complete from the client's view:
 * once the cancel is honoured its id is free again on the session, even while the POST that
 * carried it is still open, and that POST's stream ends instead of staying open for nothing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import {
  harnessOfFile,
  heldChatServerOfFile,
  RAW_INITIALIZE,
  textOf,
  untilChatsHeld,
} from './harness';

const harness = harnessOfFile();
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const ask = (prompt: string) => ({
  name: 'ask_model',
  arguments: { model: 'community/plain', prompt },
});

const held = heldChatServerOfFile(harness);

describe('an id its client cancelled, on one HTTP session', () => {
  it("is free again at once: the SDK's reconnect reuses it while the cancelled POST was open", async () => {
    const oldTransport = new StreamableHTTPClientTransport(new URL(held.server.url));
    const oldClient = new Client({ name: 'old', version: '1.0.0' });
    await oldClient.connect(oldTransport);
    const leaving = new AbortController();
    // id 1 on the old client (initialize was 0), cancelled by the SDK's notifications/cancelled.
    const oldCall = oldClient.callTool(ask('OLD client prompt'), undefined, {
      signal: leaving.signal,
    });
    await untilChatsHeld(harness, 1);
    leaving.abort();
    await expect(oldCall).rejects.toThrow();
    // Honoured: the gateway request is aborted.
    await harness().gateway.untilIdle();

    const newClient = new Client({ name: 'new', version: '1.0.0' });
    await newClient.connect(
      new StreamableHTTPClientTransport(new URL(held.server.url), {
        sessionId: oldTransport.sessionId,
      }),
    );
    await newClient.ping(); // id 0
    held.release();
    // id 1 again: accepted, answered on its own stream.
    expect(textOf(await newClient.callTool(ask('NEW client prompt')))).toContain(
      'NEW client prompt',
    );
    await newClient.close();
    await oldClient.close();
  });

  it('a raw POST cancelled from another: its stream ends, and its id answers a new request', async () => {
    const init = await fetch(held.server.url, {
      method: 'POST',
      headers: HEADERS,
      body: RAW_INITIALIZE,
    });
    await init.body?.cancel();
    const session = {
      ...HEADERS,
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-06-18',
    };
    const post = (body: object) =>
      fetch(held.server.url, { method: 'POST', headers: session, body: JSON.stringify(body) });
    const first = await post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: ask('first') });
    expect(first.status).toBe(200);
    await untilChatsHeld(harness, 1);
    const cancelled = await post({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5, reason: 'no longer needed' },
    });
    expect(cancelled.status).toBe(202);
    await harness().gateway.untilIdle();
    // The first POST's stream ends (it carries no result for the cancelled call).
    const firstText = await first.text();
    expect(firstText).not.toContain('"result"');
    const again = await post({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('"id":5');
  });
});

/**
 * A Streamable HTTP client that goes away while a tool call runs (its POST's response closed, its
 * fetch aborted, the client closed) cancels that call as `notifications/cancelled` would: the
 * gateway request is aborted and its slot freed, not left running for nobody.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import {
  harnessOfFile,
  heldChatServerOfFile,
  postJsonRpc,
  rawSession,
  untilChatsHeld,
} from './harness';

const harness = harnessOfFile();
const ASK = { model: 'community/plain', prompt: 'nobody waits for this' };

const held = heldChatServerOfFile(harness);

describe('a Streamable HTTP client gone while its tool call runs', () => {
  it('the SDK client closed mid-call: the gateway request is aborted, its slot freed', async () => {
    const client = new Client({ name: 'leaving', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(held.server.url)));
    const call = client.callTool({ name: 'ask_model', arguments: ASK });
    await untilChatsHeld(harness, 1);
    // Closing aborts the client's fetches; it sends no notifications/cancelled.
    await client.close();
    await expect(call).rejects.toThrow();
    // Still held by the emulator: only an abort from the server frees it.
    await harness().gateway.untilIdle();
    // The client's own slot comes back once the aborted call has unwound.
    await harness().mcp.client.budget.whenIdle();
    expect(harness().mcp.client.budget.active).toBe(0);
  });

  it('a raw POST whose fetch is aborted: the same, and the session goes on', async () => {
    const session = await rawSession(held.server.url);
    const leaving = new AbortController();
    const answer = postJsonRpc(
      held.server.url,
      session,
      { id: 2, method: 'tools/call', params: { name: 'ask_model', arguments: ASK } },
      leaving.signal,
    );
    // The stream is open (headers in) before the client goes.
    const response = await answer;
    expect(response.status).toBe(200);
    await untilChatsHeld(harness, 1);
    leaving.abort();
    await harness().gateway.untilIdle();
    held.release();
    const list = await postJsonRpc(held.server.url, session, { id: 3, method: 'tools/list' });
    expect(await list.text()).toContain('ask_model');
  });
});

/**
 * JSON-RPC request ids on a Streamable HTTP session. The SDK's transport keys its streams by bare
 * id, and the SDK's reconnect (a new `Client` on `StreamableHTTPClientTransport({ sessionId })`)
 * numbers from 0 again in the same session: a request whose id is still open there is refused, and
 * a client that goes cancels only the calls of its own POSTs. A cancelled call is let go by the
 * transport at once (not kept with its batch's answers until the session closes), so the same ids
 * work again on the session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { harnessOfFile, heldChatServerOfFile, rawSession, textOf, untilChatsHeld } from './harness';

const harness = harnessOfFile();
const ask = (prompt: string) => ({
  name: 'ask_model',
  arguments: { model: 'community/plain', prompt },
});

const held = heldChatServerOfFile(harness);

/** A raw session's headers, its `initialize` answered, with the protocol version it agreed. */
const versionedSession = async () => ({
  ...(await rawSession(held.server.url)),
  'mcp-protocol-version': '2025-06-18',
});

/** The ids of the JSON-RPC answers in an SSE stream's text. */
const answeredIds = (text: string) =>
  [...text.matchAll(/^data: (.+)$/gm)]
    .map((line) => JSON.parse(line[1]!) as { id?: unknown; result?: unknown; error?: unknown })
    .filter((message) => 'result' in message || 'error' in message)
    .map((message) => message.id);

describe('request ids on one HTTP session', () => {
  it("the SDK's reconnect reusing an open id is refused; the old client going cancels only its own call", async () => {
    const oldTransport = new StreamableHTTPClientTransport(new URL(held.server.url));
    const oldClient = new Client({ name: 'old', version: '1.0.0' });
    await oldClient.connect(oldTransport);
    // id 1 on the old client (initialize was 0).
    const oldCall = oldClient.callTool(ask('OLD client prompt'));
    await untilChatsHeld(harness, 1);

    const newClient = new Client({ name: 'new', version: '1.0.0' });
    await newClient.connect(
      new StreamableHTTPClientTransport(new URL(held.server.url), {
        sessionId: oldTransport.sessionId,
      }),
    );
    await newClient.ping(); // id 0
    // id 1 again, while the old client's id 1 runs: refused, not routed to the old call's stream.
    await expect(newClient.callTool(ask('NEW client prompt'))).rejects.toThrow(
      /id 1 is already used by a request of this session not answered yet/,
    );
    const newCall = newClient.callTool(ask('NEW client prompt')); // id 2
    await untilChatsHeld(harness, 2);

    // The old client goes (its fetches aborted, no notifications/cancelled): its call is
    // cancelled, the new one still runs.
    await oldClient.close();
    await expect(oldCall).rejects.toThrow();
    await harness().gateway.until((counters) => counters.inflight[harness().gateway.apiKey] === 1);
    held.release();
    expect(textOf(await newCall)).toContain('NEW client prompt');
    await newClient.close();
  });

  it('a batch naming one id twice is refused before anything runs', async () => {
    const session = await versionedSession();
    const response = await fetch(held.server.url, {
      method: 'POST',
      headers: session,
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 7, method: 'tools/list' },
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: ask('twice') },
      ]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('id 7 is already used') },
    });
    expect(harness().gateway.counters.requests.chat ?? 0).toBe(0);
  });

  it("a batch cancelled after its first answer leaves nothing behind: the same ids get all of a later batch's answers", async () => {
    const session = await versionedSession();
    // [tools/list 0, ask_model 1]; the client reads the list's answer, then goes.
    const leaving = new AbortController();
    const first = await fetch(held.server.url, {
      method: 'POST',
      headers: session,
      signal: leaving.signal,
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 0, method: 'tools/list' },
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: ask('left behind') },
      ]),
    });
    const reader = first.body!.getReader();
    let seen = '';
    while (!answeredIds(seen).includes(0)) {
      const { done, value } = await reader.read();
      // (An answer that ends without id 0 fails here: read on, it would spin for ever.)
      if (done) throw new Error(`the answer ended without id 0: ${seen}`);
      seen += new TextDecoder().decode(value);
    }
    await untilChatsHeld(harness, 1);
    leaving.abort();
    await harness().gateway.untilIdle();

    // The same ids again, the slow call first. Had the transport kept the first batch's list
    // answer under id 0, the ping's answer would complete this batch and end its stream before
    // the call's answer, and the call would be cancelled as its client gone.
    const second = fetch(held.server.url, {
      method: 'POST',
      headers: session,
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 0, method: 'tools/call', params: ask('second batch') },
        { jsonrpc: '2.0', id: 1, method: 'ping' },
      ]),
    });
    await untilChatsHeld(harness, 2, 1);
    held.release();
    const response = await second;
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(answeredIds(text).sort()).toEqual([0, 1]);
    expect(text).toContain('second batch');
  });
});

// CJS require of the packed @infergate/mcp: the server embedded in an app, over Streamable HTTP
// on loopback (raw HTTP as a remote agent would send it), against the emulator of the run.
const assert = require('node:assert/strict');
const { createGatewayMcpServer, startHttpServer, TOOL_NAMES } = require('@infergate/mcp');

/** The JSON-RPC message of a Streamable HTTP answer (an SSE event or a JSON body). */
async function messageOf(response) {
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse(data === undefined ? text : data.slice(6));
}

(async () => {
  assert.equal(TOOL_NAMES.length, 7);
  const gateway = createGatewayMcpServer({ catalogRefreshMs: 0 });
  const http = await startHttpServer(gateway, { port: 0, token: 'pack-test-token-0123' });
  try {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer pack-test-token-0123',
    };
    const init = await fetch(http.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'pack-test', version: '1.0.0' },
        },
      }),
    });
    assert.equal(init.status, 200);
    const session = init.headers.get('mcp-session-id');
    assert.ok(session);
    assert.equal((await messageOf(init)).result.serverInfo.name, 'infergate');
    const call = await fetch(http.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'list_models', arguments: {} },
      }),
    });
    const { result } = await messageOf(call);
    assert.ok(result.content[0].text.includes('community/general'));
    const refused = await fetch(http.url, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    assert.equal(refused.status, 403);
  } finally {
    await http.close();
    await gateway.close();
  }
  console.log('mcp (cjs): ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

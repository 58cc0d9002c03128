// The availability rule (docs/gateway-protocol.md §3.2) is one function in core, used alike by
// LangChain's createGatewayTools, the AI SDK's service calls and the MCP server's tool list.
import { createGateway } from '@infergate/ai-sdk';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { createGatewayTools } from '@infergate/langchain';
import { createGatewayMcpServer } from '@infergate/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let emulator: EmulatedGateway;

/**
 * A gateway whose `GET /capabilities` leaves translation out, reports ocr with 0 nodes, gives
 * speech to text no count and embeddings no engine.
 */
const patched: typeof fetch = async (input, init) => {
  const answer = await fetch(input, init);
  if (!String(input).endsWith('/capabilities')) return answer;
  const body = (await answer.json()) as { data: Record<string, unknown>[] };
  body.data = body.data.filter((entry) => entry.id !== 'translation');
  for (const entry of body.data) {
    if (entry.id === 'ocr') entry.available_nodes = 0;
    if (entry.id === 'speech_to_text') delete entry.available_nodes;
    if (entry.id === 'embeddings') entry.engines = [];
  }
  return Response.json(body, { status: answer.status, headers: answer.headers });
};

beforeAll(async () => {
  emulator = await emulate({ as: 'http' });
});
afterAll(() => emulator.close());

const connection = () => ({ baseURL: emulator.baseURL, apiKey: emulator.apiKey, fetch: patched });

describe('one availability rule for LangChain, the AI SDK and MCP', () => {
  it('LangChain offers the unlisted and uncounted services, not the one at 0 nodes', async () => {
    const tools = await createGatewayTools(connection());
    expect(tools.map((tool) => tool.name)).toEqual(['translate', 'transcribe']);
  });

  it('the MCP server lists the same service tools', async () => {
    const server = createGatewayMcpServer({ clientOptions: connection(), catalogRefreshMs: 0 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'availability', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['translate', 'transcribe', 'ask_model']));
      for (const hidden of ['ocr', 'embed', 'similarity']) expect(names).not.toContain(hidden);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('the AI SDK sends to the offered services and refuses the others before sending', async () => {
    const gateway = createGateway(connection());
    await gateway.services();
    const before = { ...emulator.emulator.counters.requests };
    expect((await gateway.translate({ text: 'hi', targetLanguage: 'de' })).text).toBe('[de] hi');
    await expect(gateway.ocr({ image: new Uint8Array([137, 80, 78, 71]) })).rejects.toMatchObject({
      data: { code: 'provider_unavailable' },
    });
    expect(emulator.emulator.counters.requests.translations).toBe(before.translations + 1);
    expect(emulator.emulator.counters.requests.ocr).toBe(before.ocr);
  });
});

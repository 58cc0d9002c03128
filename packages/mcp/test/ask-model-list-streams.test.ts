/**
 * `ask_model` with `fallback_models`, progress watched, streams when the catalog says the model and
 * every listed model stream: core's plan is given the listed models' capabilities (as LangChain's
 * `.stream()` is), so both adapters ask the same way for the same call.
 */
import { emulate } from '@infergate/emulator/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createGatewayMcpServer } from '../src/index';

describe('ask_model over a fallback list of streaming models', () => {
  it.each([
    [undefined, true],
    [['community/tools'], true],
  ])('fallback_models %o, progress watched: stream %s', async (fallbacks, streamed) => {
    const gateway = await emulate();
    const sent: unknown[] = [];
    const fetch: typeof gateway.fetch = async (url, init) => {
      if (String(url).endsWith('/chat/completions') && typeof init?.body === 'string') {
        sent.push((JSON.parse(init.body) as { stream?: unknown }).stream);
      }
      return gateway.fetch(url, init);
    };
    const server = createGatewayMcpServer({
      catalogRefreshMs: 0,
      clientOptions: { ...gateway.connection, fetch },
    });
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    await server.connect(theirs);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(ours);
    const notes: unknown[] = [];
    const result = await client.callTool(
      {
        name: 'ask_model',
        arguments: {
          model: 'community/general',
          prompt: 'hi',
          ...(fallbacks === undefined ? {} : { fallback_models: fallbacks }),
        },
      },
      undefined,
      { onprogress: (note) => notes.push(note) },
    );
    expect(result.isError).toBeFalsy();
    expect(sent).toEqual([streamed]);
    await client.close();
    await server.close();
    await gateway.close();
  });
});

/** A service without available nodes leaves the tool list, and clients are told. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness';

let harness: Harness | undefined;
afterEach(() => harness?.close());

/** Resolves at the client's next `notifications/tools/list_changed`. */
function nextListChange(client: Client): Promise<void> {
  return new Promise((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
}
const toolNames = async (client: Client) =>
  (await client.listTools()).tools.map((tool) => tool.name).sort();

describe('the tool list follows the catalog', () => {
  it('leaves out tools whose service has no nodes, and brings them back', async () => {
    harness = await startHarness({
      scenario: { services: { speech_to_text: { availableNodes: 0 } } },
    });
    const [a, b] = [await harness.connect(), await harness.connect()];
    expect(await toolNames(a)).toEqual([
      'ask_model',
      'embed',
      'list_models',
      'ocr',
      'similarity',
      'translate',
    ]);

    const services = harness.gateway.emulator.scenario.services;
    services.embeddings.availableNodes = 0;
    services.speech_to_text.availableNodes = 1;
    const told = Promise.all([nextListChange(a), nextListChange(b)]);
    expect(await harness.mcp.refreshCatalog()).toBe(true);
    await told;
    expect(await toolNames(b)).toEqual([
      'ask_model',
      'list_models',
      'ocr',
      'transcribe',
      'translate',
    ]);
    const refused = await a.callTool({ name: 'embed', arguments: { texts: ['x'] } });
    expect(refused.isError).toBe(true);

    // Nothing changed: no notification, and refreshCatalog says so.
    expect(await harness.mcp.refreshCatalog()).toBe(false);

    services.embeddings.availableNodes = 2;
    const back = nextListChange(a);
    await harness.mcp.refreshCatalog();
    await back;
    expect(await toolNames(a)).toContain('similarity');
  });

  it('notices by itself, reading the catalog every catalogRefreshMs', async () => {
    harness = await startHarness({ server: { catalogRefreshMs: 50 } });
    const client = await harness.connect();
    expect(await toolNames(client)).toContain('ocr');
    const told = nextListChange(client);
    harness.gateway.emulator.scenario.services.ocr.availableNodes = 0;
    await told;
    expect(await toolNames(client)).not.toContain('ocr');
  });

  it('re-reads the catalog when a call finds its service unavailable', async () => {
    harness = await startHarness();
    const client = await harness.connect();
    harness.gateway.emulator.scenario.services.translation.availableNodes = 0;
    const told = nextListChange(client);
    const result = await client.callTool({
      name: 'translate',
      arguments: { text: 'hi', target_language: 'de' },
    });
    expect(result.structuredContent).toMatchObject({ error: { code: 'provider_unavailable' } });
    await told;
    expect(await toolNames(client)).not.toContain('translate');
  });

  it('list_models says a service is available by the same rule as the tool list (core’s)', async () => {
    harness = await startHarness();
    const services = harness.gateway.emulator.scenario.services;
    // A gateway that gives no node count for a service: the gateway decides, so it is available.
    services.translation.availableNodes = undefined as unknown as number;
    services.ocr.availableNodes = 0;
    await harness.mcp.refreshCatalog();
    const client = await harness.connect();
    const result = await client.callTool({ name: 'list_models', arguments: {} });
    const listed = (result.structuredContent as { services: Record<string, unknown>[] }).services;
    expect(
      listed.map(({ id, available, available_nodes }) => [id, available, available_nodes]),
    ).toEqual([
      ['translation', true, undefined],
      ['ocr', false, 0],
      ['speech_to_text', true, 1],
      ['embeddings', true, 2],
    ]);
    const tools = await toolNames(client);
    expect(tools).toContain('translate');
    expect(tools).not.toContain('ocr');
  });

  it('keeps the tools when the catalog cannot be read', async () => {
    harness = await startHarness();
    const client = await harness.connect();
    harness.gateway.emulator.injectFault({ fault: 'bad_gateway', endpoint: 'capabilities' });
    expect(await harness.mcp.refreshCatalog()).toBe(false);
    expect(await toolNames(client)).toHaveLength(7);
  });
});

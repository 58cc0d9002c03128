/**
 * A call to a tool the list left out brings the list up to date with core's read of the services,
 * whatever the call's outcome: the service back, a call that fails for another reason (the engine's
 * own error) must not leave the tool hidden until the next catalog read (rv-2mcp F2). Through the
 * MCP SDK's Client against the emulator.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { harness, client } = connectedHarnessOfFile();

const nextListChange = (mcpClient: Client) =>
  new Promise<void>((resolve) =>
    mcpClient.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
const toolNames = async () => (await client().listTools()).tools.map((tool) => tool.name);

it('a hidden tool whose call fails for another reason, the service back, is listed again', async () => {
  const { emulator } = harness().gateway;
  emulator.scenario.services.translation.availableNodes = 0;
  const hidden = nextListChange(client());
  expect(await harness().mcp.refreshCatalog()).toBe(true);
  await hidden;
  expect(await toolNames()).not.toContain('translate');

  emulator.scenario.services.translation.availableNodes = 1;
  emulator.injectFault({ fault: 'bad_gateway', endpoint: 'translations', times: 3 });
  const back = nextListChange(client());
  const failed = (await client().callTool({
    name: 'translate',
    arguments: { text: 'hi', target_language: 'de' },
  })) as CallToolResult;
  expect(failed.isError).toBe(true);
  await back;
  expect(await toolNames()).toContain('translate');
});

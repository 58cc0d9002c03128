/**
 * A tool left out of `tools/list` (its service had no nodes at the last catalog read) called all
 * the same, as by an agent that listed the tools once: the call asks the gateway (core reads the
 * services again before it refuses) and is served when the service is back, the list catching up;
 * while it is down the result is a tool error the model can act on (code, what to do), not the
 * MCP SDK's bare "Tool ocr disabled". The list follows core's read after such a call, whatever its
 * outcome. Through the MCP SDK's Client against the emulator.
 */
import { pngWithText } from '@infergate/emulator/fixtures';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectedHarnessOfFile, textOf } from './harness';

const { harness, client } = connectedHarnessOfFile();

/** Resolves at the client's next `notifications/tools/list_changed`. */
const nextListChange = (mcpClient: Client) =>
  new Promise<void>((resolve) =>
    mcpClient.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
const toolNames = async () => (await client().listTools()).tools.map((tool) => tool.name);
const ocr = async (text: string) =>
  (await client().callTool({
    name: 'ocr',
    arguments: { image_base64: Buffer.from(pngWithText(text)).toString('base64') },
  })) as CallToolResult;

describe('a call to a tool the tool list left out', () => {
  it('is a tool error naming the code and what to do while the service is down', async () => {
    const services = harness().gateway.emulator.scenario.services;
    services.ocr.availableNodes = 0;
    const hidden = nextListChange(client());
    expect(await harness().mcp.refreshCatalog()).toBe(true);
    await hidden;
    expect(await toolNames()).not.toContain('ocr');

    const refused = await ocr('still down');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).not.toMatch(/disabled/);
    expect(refused.structuredContent).toMatchObject({
      error: { code: 'provider_unavailable', what_to_do: expect.any(String) },
    });
    expect(harness().gateway.emulator.counters.requests.ocr ?? 0).toBe(0);
  });

  it('is served once the service is back, before the next catalog read; the list catches up', async () => {
    expect(await toolNames()).not.toContain('ocr');
    harness().gateway.emulator.scenario.services.ocr.availableNodes = 1;
    const back = nextListChange(client());
    const served = await ocr('Invoice 42');
    expect(served.isError).toBeFalsy();
    expect(textOf(served)).toBe('Invoice 42');
    await back;
    expect(await toolNames()).toContain('ocr');
  });

  it('is listed again after a call that failed for another reason, the service back (rv-2mcp F2)', async () => {
    const { emulator } = harness().gateway;
    emulator.scenario.services.ocr.availableNodes = 0;
    const hidden = nextListChange(client());
    expect(await harness().mcp.refreshCatalog()).toBe(true);
    await hidden;
    expect(await toolNames()).not.toContain('ocr');

    emulator.scenario.services.ocr.availableNodes = 1;
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'ocr', times: 3 });
    const back = nextListChange(client());
    expect((await ocr('engine down')).isError).toBe(true);
    await back;
    expect(await toolNames()).toContain('ocr');
  });
});

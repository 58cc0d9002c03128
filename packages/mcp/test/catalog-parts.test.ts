// `list_models` and the `infergate://` resources read `GET /models` and `GET /capabilities` apart:
// one failing costs its own part only, and the advice fits what failed (docs/gateway-protocol.md
// §3.1, §3.2, §10.2).
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('list_models when GET /capabilities fails alone', () => {
  it('lists the models and says the services are unavailable; the models resource answers', async () => {
    harness = await startHarness();
    const client = await harness.connect();
    harness.gateway.emulator.injectFault({
      fault: 'service_unavailable',
      endpoint: 'capabilities',
    });
    harness.mcp.client.refreshCatalog(); // (as after catalogTtlMs: the lists are read again)
    const result = await client.callTool({ name: 'list_models', arguments: {} });
    expect(result.isError).toBeFalsy();
    const listed = result.structuredContent as {
      models: { id: string }[];
      services: unknown[];
      services_unavailable?: string;
    };
    expect(listed.models.map((model) => model.id)).toContain('community/general');
    expect(listed.services).toEqual([]);
    expect(listed.services_unavailable).toMatch(/services could not be read/);
    expect(textOf(result)).not.toMatch(/another model/);
    const resource = await client.readResource({ uri: 'infergate://models' });
    const first = resource.contents[0] as { text: string };
    expect((JSON.parse(first.text) as unknown[]).length).toBe(listed.models.length);
    await expect(client.readResource({ uri: 'infergate://services' })).rejects.toThrow();
  });
});

describe('list_models when GET /models fails', () => {
  it('is an error whose advice is to wait, not to try another model', async () => {
    harness = await startHarness();
    const client = await harness.connect();
    harness.gateway.emulator.injectFault({ fault: 'service_unavailable', endpoint: 'models' });
    harness.mcp.client.refreshCatalog();
    const result = await client.callTool({ name: 'list_models', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/provider_unavailable/);
    expect(textOf(result)).not.toMatch(/another model/);
    expect(textOf(result)).toMatch(/try again/);
  });
});

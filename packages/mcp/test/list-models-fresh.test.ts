/**
 * `list_models` and `infergate://services` say what is available now: they read past core's
 * catalog cache (up to `catalogTtlMs` old), so a service gone down since the last read shows as
 * down, and a gateway gone is an error, not the old list.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { inMemoryServer } from './harness';

let opened: Awaited<ReturnType<typeof inMemoryServer>> | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

interface Listed {
  services: { id: string; available: boolean }[];
}

async function translationAvailable(): Promise<boolean | undefined> {
  const result = await opened!.client.callTool({ name: 'list_models', arguments: {} });
  const listed = result.structuredContent as unknown as Listed;
  return listed.services.find((service) => service.id === 'translation')?.available;
}

describe('list_models reads the catalog fresh', () => {
  it('shows a service that went down since the last read, within the cache time', async () => {
    opened = await inMemoryServer({}, { catalogTtlMs: 600_000 });
    expect(await translationAvailable()).toBe(true);
    opened.gateway.emulator.scenario.services.translation!.availableNodes = 0;
    expect(await translationAvailable()).toBe(false);
    const resource = await opened.client.readResource({ uri: 'infergate://services' });
    const services = JSON.parse(
      String((resource.contents[0] as { text: string }).text),
    ) as Listed['services'];
    expect(services.find((service) => service.id === 'translation')?.available).toBe(false);
  });
});

import { describe, expect, it, vi } from 'vitest';
import type { GatewayService } from '../src/index';
import { caught, harness } from './helpers';

// The catalog's periodic re-read lives in core (client.watchCatalog; docs/gateway-protocol.md
// §3.3): each read goes past the cache, a failed one is skipped, close() stops the schedule.

const nodesOf = (services: GatewayService[], id: string) =>
  services.find((service) => service.id === id)?.available_nodes;

describe('client.watchCatalog', () => {
  it('refresh() reads past the cache and hands the list to onRead', async () => {
    const { client, emulator } = await harness();
    await client.services(); // cached from now on
    emulator.scenario.services.embeddings.availableNodes = 0;
    expect(nodesOf(await client.services(), 'embeddings')).not.toBe(0); // the cache's
    const lists: GatewayService[][] = [];
    const watch = client.watchCatalog(0, (services) => lists.push(services));
    expect(await watch.refresh()).toBe(true);
    expect(nodesOf(lists[0]!, 'embeddings')).toBe(0);
    watch.close();
  });

  it('reads on its schedule (fake timers) until closed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { client, emulator } = await harness();
      const lists: GatewayService[][] = [];
      const watch = client.watchCatalog(1_000, (services) => lists.push(services));
      vi.advanceTimersByTime(1_000);
      await vi.waitFor(() => expect(lists).toHaveLength(1), { timeout: 30_000 });
      watch.close();
      vi.advanceTimersByTime(5_000);
      expect(emulator.counters.requests.capabilities).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('skips a failed read (onRead not called, refresh() false) and refuses a bad interval', async () => {
    const { client, emulator } = await harness();
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'capabilities' });
    const onRead = vi.fn();
    const watch = client.watchCatalog(0, onRead);
    expect(await watch.refresh()).toBe(false);
    expect(onRead).not.toHaveBeenCalled();
    watch.close();
    const error = await caught(async () => client.watchCatalog(-1, onRead));
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'intervalMs' });
  });
});

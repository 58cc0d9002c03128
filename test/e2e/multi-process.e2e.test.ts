import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import { examplesDir, runNode } from '../helpers/run';

// examples/multi-process as a user runs it (`node src/main.mjs`): it must exit non-zero, with one
// line saying why, whenever its README's claim (4 in flight at most, 0 429s) is not shown.
const runMain = (env: Record<string, string> = {}) =>
  runNode(examplesDir('multi-process'), ['src/main.mjs'], env, 90_000);

/** A Redis URL whose loopback port was free a moment ago: connections to it are refused. */
async function unreachableRedisUrl(): Promise<string> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return `redis://127.0.0.1:${port}`;
}

describe('examples/multi-process', () => {
  it('shares the key through its own redis-server: at most 4 in flight, 0 429s, exit 0', async () => {
    const result = await runMain();
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(
      /^30 chat calls from 3 processes; max in flight on the key: [1-4]; gateway 429s: 0$/m,
    );
  });

  it('starts its redis-server on a port the OS has free: it runs with 6390-6889 all taken', async () => {
    // (The example once drew its port from this range at random, never checking it was free.)
    const taken = await Promise.all(
      Array.from({ length: 500 }, async (_, i) => {
        const server = createServer().listen(6390 + i, '127.0.0.1');
        // Held by another process already: taken all the same.
        await Promise.race([once(server, 'listening'), once(server, 'error')]);
        return server;
      }),
    );
    try {
      // (No REDIS_URL: its own redis-server.)
      const result = await runMain({ REDIS_URL: '' });
      expect(result.code, result.output).toBe(0);
      expect(result.stdout).toMatch(/^30 chat calls from 3 processes; /m);
    } finally {
      for (const server of taken) server.close();
    }
  });

  it('exits 1 naming the failed workers when they cannot start (a REDIS_URL of the wrong scheme)', async () => {
    const result = await runMain({ REDIS_URL: 'http://nope' });
    expect(result.code, result.output).toBe(1);
    expect(result.stderr).toContain('worker 1 failed: GatewayError [configuration_error]: ');
    expect(result.stderr).toContain(
      'multi-process: worker 1 (1), worker 2 (1), worker 3 (1) failed: see above',
    );
    // No counters printed as if the run had shown something, and no stack traces.
    expect(result.stdout).not.toContain('chat calls from');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('exits 1 when Redis cannot be reached: each worker ran on a budget of its own, not shared', async () => {
    const result = await runMain({ REDIS_URL: await unreachableRedisUrl() });
    expect(result.code, result.output).toBe(1);
    expect(result.stderr).toMatch(
      /^worker 1 failed: \d+ of its requests ran on its in-process budget, not shared through Redis/m,
    );
    expect(result.stderr).toContain(
      'multi-process: worker 1 (1), worker 2 (1), worker 3 (1) failed: see above',
    );
  });

  it('a worker whose call failed still closes its budget and exits, with Redis unreachable', async () => {
    // Left open, the budget keeps trying to reach Redis and the worker never exits (main.mjs then
    // waits for it forever): what a call refused on a budget not shared (a 429) used to do.
    const gateway = await startEmulator({ port: 0 });
    try {
      const result = await runNode(
        examplesDir('multi-process'),
        ['src/worker.mjs', '1'],
        {
          BASE_URL: gateway.url,
          API_KEY: 'not-the-key',
          REDIS_URL: await unreachableRedisUrl(),
          CALLS: '2',
        },
        60_000,
      );
      expect(result.code, result.output).toBe(1);
      expect(result.stderr).toContain('worker 1 failed: GatewayError [invalid_api_key]: ');
      expect(result.stderr).toMatch(
        /^worker 1 failed: \d+ of its requests ran on its in-process budget, not shared through Redis/m,
      );
    } finally {
      await gateway.close();
    }
  });

  it('says in one line how to get redis-server when it is not on PATH', async () => {
    const emptyPath = mkdtempSync(join(tmpdir(), 'no-redis-'));
    const result = await runMain({ PATH: emptyPath });
    expect(result.code, result.output).toBe(1);
    expect(result.stderr.trim()).toBe(
      'multi-process: redis-server is not on PATH: install it (bash scripts/ensure-redis.sh in a clone of the repository, or Debian’s redis-server package), or set REDIS_URL',
    );
  });
});

/**
 * `--redis URL`: two server processes share the key's 4 slots through Redis (without it each
 * process would run 4 of its own, and the gateway would refuse the excess with 429s).
 */
import type { ChildProcess } from 'node:child_process';
import { startRedis, type TestRedis } from '@infergate/emulator/testing/redis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';
import { ensureBuilt, spawnHttpCli } from './spawn-cli';

let harness: Harness;
let redis: TestRedis;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  harness = await startHarness({ scenario: { latencyMs: 40 } });
  redis = await startRedis();
}, 120_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await redis?.stop();
  await harness?.close();
});

describe('--redis', () => {
  it('keeps two server processes at 4 requests in flight on the key together', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      INFERGATE_BASE_URL: harness.gateway.baseURL,
      INFERGATE_API_KEY: harness.gateway.apiKey,
    };
    const servers = await Promise.all(
      [0, 1].map(() => spawnHttpCli(['--redis', redis.url, '--catalog-refresh', '0'], env)),
    );
    children.push(...servers.map((server) => server.child));
    const clients = await Promise.all(
      servers.map(async ({ url }) => {
        const client = new Client({ name: 'worker', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        return client;
      }),
    );
    harness.gateway.emulator.resetCounters();

    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        clients[i % 2]!.callTool({
          name: 'translate',
          arguments: { text: `job ${i}`, target_language: 'de' },
        }),
      ),
    );

    expect(results.map(textOf)).toEqual(Array.from({ length: 24 }, (_, i) => `[de] job ${i}`));
    const counters = harness.gateway.emulator.counters;
    expect(counters.maxInflight[harness.gateway.apiKey]).toBeLessThanOrEqual(4);
    expect(counters.concurrencyRejections).toBe(0);
    for (const server of servers) expect(server.stderr()).not.toContain('warning');
    await Promise.all(clients.map((client) => client.close()));
  });
});

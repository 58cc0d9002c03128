/**
 * `--redis URL`: two server processes share the key's 4 slots through Redis (without it each
 * process would run 4 of its own, and the gateway would refuse the excess with 429s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';
import { ensureBuilt, spawnHttpCli } from './spawn-cli';

let harness: Harness;
let redis: ChildProcess;
let redisUrl: string;
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  return port;
}

beforeAll(async () => {
  ensureBuilt();
  harness = await startHarness({ scenario: { latencyMs: 40 } });
  const port = await freePort();
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let seen = '';
  for await (const chunk of redis.stdout!) {
    seen += String(chunk);
    if (seen.includes('Ready to accept connections')) break;
  }
  redis.stdout!.resume();
  redisUrl = `redis://127.0.0.1:${port}`;
}, 120_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  redis?.kill('SIGKILL');
  await harness?.close();
});

describe('--redis', () => {
  it('keeps two server processes at 4 requests in flight on the key together', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      INFERGATE_BASE_URL: harness.gateway.url,
      INFERGATE_API_KEY: harness.gateway.apiKey,
    };
    const servers = await Promise.all(
      [0, 1].map(() => spawnHttpCli(['--redis', redisUrl, '--catalog-refresh', '0'], env)),
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

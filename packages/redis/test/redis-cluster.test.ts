import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisBudget } from '../src/redis-budget';
import { budgetMaker, connectedClient, type RedisClient, request } from './budgets';

// Redis Cluster is not supported (a cluster's PUBLISH counts only one node's subscribers, which
// the hand-over of a slot relies on; the client follows no MOVED): the budget refuses it with a
// configuration error, whatever `onRedisFailure` says, instead of counting per process.

/** A cluster-enabled redis-server (one node, no slots yet), resolved once it accepts connections. */
async function startClusterNode(): Promise<{ url: string; stop: () => Promise<void> }> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as { port: number }).port;
  probe.close();
  const dir = mkdtempSync(join(tmpdir(), 'ig-cluster-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.on('exit', () => reject(new Error(`redis-server --cluster-enabled exited: ${out}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const open: RedisBudget[] = [];
let node: Awaited<ReturnType<typeof startClusterNode>>;
let admin: RedisClient;
beforeAll(async () => {
  node = await startClusterNode();
  admin = await connectedClient(node.url);
});
afterAll(async () => {
  await Promise.all(open.map((b) => b.close()));
  await admin?.close();
  await node?.stop();
});
const budget = budgetMaker(
  () => ({ url: node.url, warn: () => {} }),
  (b) => open.push(b),
);

describe('a Redis Cluster node', () => {
  it('whose slots are not served (CLUSTERDOWN): ready() and every call refuse with a configuration error, never the fallback', async () => {
    const b = budget();
    const error = await caught(b.ready(), isGatewayError);
    expect(error.code).toBe('configuration_error');
    expect(error.message).toMatch(/Redis Cluster \(it answered "CLUSTERDOWN.*not support/);
    expect(error.message).toMatch(/single primary/);
    expect((await caught(b.acquire(request('ig-cluster')), isGatewayError)).code).toBe(
      'configuration_error',
    );
    expect(b.stats.fallbackAcquires).toBe(0);
  });

  it.each(['fallback', 'error'] as const)(
    'with a database path in the URL (SELECT refused at connect), onRedisFailure %s: refused the same',
    async (onRedisFailure) => {
      const b = budget({ url: `${node.url}/1`, onRedisFailure });
      const error = await caught(b.acquire(request('ig-cluster')), isGatewayError);
      expect(error.code).toBe('configuration_error');
      expect(error.message).toMatch(
        /Redis Cluster \(it answered "ERR SELECT is not allowed in cluster mode/,
      );
      expect((await caught(b.ready(), isGatewayError)).code).toBe('configuration_error');
      expect(b.stats.fallbackAcquires).toBe(0);
    },
  );

  it('serving every key (INFO says cluster_enabled:1): refused the same, although every script runs', async () => {
    await admin.sendCommand(['CLUSTER', 'ADDSLOTSRANGE', '0', '16383']);
    await pollUntil(
      async () => String(await admin.sendCommand(['CLUSTER', 'INFO'])).includes('cluster_state:ok'),
      'the one-node cluster serving every slot',
    );
    const b = budget({ onRedisFailure: 'fallback' });
    const error = await caught(b.acquire(request('ig-cluster')), isGatewayError);
    expect(error.code).toBe('configuration_error');
    expect(error.message).toMatch(/Redis Cluster.*cluster_enabled:1.*not support/);
    expect((await caught(b.ready(), isGatewayError)).code).toBe('configuration_error');
    expect(b.stats.fallbackAcquires).toBe(0);
  });
});

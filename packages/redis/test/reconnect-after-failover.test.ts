import { once } from 'node:events';
import { createServer, connect as tcpConnect } from 'node:net';
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { describe, expect, it } from 'vitest';
import { leaseKeys } from '../src/lease-scripts';
import {
  budgetMaker,
  demoteToReplicaOf,
  grantedByRedis,
  type RedisClient,
  request,
  serversPerTest,
  untilBackOnRedis,
} from './budgets';

// A failover behind an address that follows the primary (a managed Redis's primary endpoint, a
// Sentinel-aware VIP, a Kubernetes Service): the connections the budget holds lead to the old
// node, a new connection to the same URL reaches the new primary. The budget must make its
// connections anew, not wait on the old ones for good. A TCP proxy of the test's own stands for
// the address: `target` is where its new connections go.

const { cleanup, server } = serversPerTest();

/** A loopback address forwarding each new connection to `target.port`; `silence()` makes every
 *  connection it forwards so far go silent (nothing passes, nothing is closed: a host that
 *  vanished), while new ones still go through. `slowDown()` holds back Redis's answers on every
 *  connection it forwards so far (a Redis busy with another app's long script), until a new
 *  connection has had an answer: then they pass too, just after it (the worst order for the
 *  budget: the fresh connection answered first). `connections` counts the connections made. */
interface Forwarded {
  silent: boolean;
  /** The budget's side of it was closed (or the proxy's, when the old node is gone). */
  closed: boolean;
  upstream: ReturnType<typeof tcpConnect>;
  /** Redis's answers held back (while slowed down). */
  held: Buffer[] | undefined;
  write(data: Buffer): void;
}

async function addressOf(target: { port: number }) {
  const open = new Set<Forwarded>();
  let connections = 0;
  /** Called with the answers that reach a connection made since `slowDown()`. */
  let onFreshAnswer = () => {};
  const proxy = createServer((client) => {
    connections += 1;
    const upstream = tcpConnect(target.port, '127.0.0.1');
    const pair: Forwarded = {
      silent: false,
      closed: false,
      upstream,
      held: undefined,
      write: (data) => client.write(data),
    };
    open.add(pair);
    const fresh = onFreshAnswer;
    client.on('data', (data) => pair.silent || upstream.write(data));
    upstream.on('data', (data: Buffer) => {
      if (pair.silent) return;
      if (pair.held) pair.held.push(data);
      else {
        client.write(data);
        fresh();
      }
    });
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.on('close', () => {
      pair.closed = true;
      upstream.destroy();
      open.delete(pair);
    });
    upstream.on('close', () => pair.silent || client.destroy());
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const address = proxy.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  cleanup.push(async () => {
    proxy.close();
    for (const pair of open) pair.upstream.destroy();
  });
  return {
    url: `redis://127.0.0.1:${address.port}`,
    get connections() {
      return connections;
    },
    /** Slows down the connections open now, and answers them. */
    slowDown(): readonly { readonly closed: boolean }[] {
      const slowed = [...open];
      for (const pair of slowed) pair.held = [];
      let flushed = false;
      onFreshAnswer = () => {
        if (flushed) return;
        flushed = true;
        // (After the fresh answer's bytes, on the next turn: they reach the budget first.)
        setImmediate(() => {
          for (const pair of slowed) {
            const held = pair.held ?? [];
            pair.held = undefined;
            for (const data of held) pair.write(data);
          }
        });
      };
      return slowed;
    },
    silence() {
      for (const pair of open) {
        pair.silent = true;
        pair.upstream.destroy(); // (the old node is gone: what it held is not the subject)
      }
    },
  };
}

// Each test gives the budget the command timeout its subject needs: a short one where the silence
// is the subject, none that a loaded machine (a process not scheduled for 700 ms) could outlast
// where it is not. The calls the test is not about are retried until Redis granted them.
const budget = budgetMaker(
  () => ({ warn: () => {}, onRedisFailure: 'error', leaseTtlMs: 3000 }),
  (b) => cleanup.push(() => b.close()),
);

/**
 * A budget on `address` that took a lease of a fresh id (`ig-<name>-…`) and gave it back, done in
 * Redis (seen by `admin`): its connections made and used, for the test to break them then.
 */
async function leasedAndGivenBack(
  address: { url: string },
  admin: RedisClient,
  name: string,
  commandTimeoutMs: number,
) {
  const b = budget({ url: address.url, commandTimeoutMs });
  const id = `ig-${name}-${Math.random()}`;
  const keys = leaseKeys('infergate:budget', id);
  await grantedByRedis(b, () => request(id));
  await pollUntil(async () => (await admin.zCard(keys.holders)) === 0, 'the release done');
  return { b, id, keys };
}

/**
 * A lease of `id` taken in Redis once the budget is back on it: a call that a loaded machine made
 * miss the short command timeout (a new outage, not the subject) is asked again, as a caller would.
 */
async function leaseOnceBack(b: ReturnType<typeof budget>, id: string) {
  for (let tries = 1; ; tries++) {
    await untilBackOnRedis(b);
    const lease = await b.acquire(request(id)).catch((e: unknown) => {
      if (tries === 10) throw e;
      return undefined;
    });
    if (lease !== undefined) return lease;
  }
}

describe('the host behind the URL vanishes (its connections go silent) and the URL leads to a new primary', () => {
  it('the budget gives up on the silent connections, makes new ones, and shares the slots in Redis again', async () => {
    const { redis, admin } = await server();
    const address = await addressOf({ port: redis.port });
    // (Short: the silence is the subject, and three command timeouts of it pass before the end.)
    const { b, id, keys } = await leasedAndGivenBack(address, admin, 'vanished', 500);

    address.silence();
    // The call that meets the silence gives up after the command timeout, naming it.
    const failed = await caught(b.acquire(request(id)), isGatewayError);
    expect(failed.code).toBe('network_error');
    expect(failed.message).toMatch(/timed out/);

    // Before the fix: the probe waited on the silent connection for good, and every call failed.
    const lease = await leaseOnceBack(b, id);
    expect(await admin.zCard(keys.holders)).toBe(1);
    expect(b.stats.fallbackAcquires).toBe(0);
    // The pub/sub connection was made anew too: the wake channel listens on the new connection.
    const channels = await admin.sendCommand<string[]>(['PUBSUB', 'CHANNELS', `${keys.wake}*`]);
    expect(channels).toHaveLength(1);
    lease.release();
  });
});

describe("a Redis that is only slow (another app's long script) past the command timeout, same host", () => {
  it('keeps its connections when the old one answers just after a fresh one: no reconnect', async () => {
    const { redis, admin } = await server();
    const address = await addressOf({ port: redis.port });
    // (The default 2 s: the old connection's answer must come within one command timeout after
    // the fresh one's, which a process paused for 700 ms at a time must not make it miss.)
    const { b, id, keys } = await leasedAndGivenBack(address, admin, 'slow', 2000);

    const made = address.connections;
    const slowed = address.slowDown();
    expect(slowed).toHaveLength(2); // the scripts' connection and the pub/sub one
    const failed = await caught(b.acquire(request(id)), isGatewayError);
    expect(failed.message).toMatch(/timed out/);
    // The probe got no answer in time either, and the budget asked a fresh connection, which
    // answered: then the old connections' answers came, the probe's among them.
    await pollUntil(() => address.connections > made, 'the fresh connection');
    const lease = await leaseOnceBack(b, id);
    expect(await admin.zCard(keys.holders)).toBe(1);
    // Before the fix: a fresh answer alone made the budget drop both connections and open two
    // more (rv-2redis F4: a Redis busy 800 ms at a time was reconnected to again and again).
    expect(slowed.map((pair) => pair.closed)).toEqual([false, false]);
    lease.release();
  });
});

describe('a failover demotes the node the budget is connected to (READONLY) and the URL leads to the new primary', () => {
  it('the budget reconnects and works on the new primary', async () => {
    const [a, bNode] = await Promise.all([server(), server()]);
    const target = { port: a.redis.port };
    const address = await addressOf(target);
    // (Long: Redis answers at every step here, READONLY included; no call may time out instead.)
    const { b, id, keys } = await leasedAndGivenBack(address, a.admin, 'demoted', 10_000);

    // The failover: A becomes a replica of B (it keeps the budget's connections open and answers
    // READONLY on them), and the address now leads to B.
    await demoteToReplicaOf(a.admin, bNode.redis.port);
    target.port = bNode.redis.port;
    const failed = await caught(b.acquire(request(id)), isGatewayError);
    expect(failed.message).toMatch(/READONLY/);

    // Before the fix: READONLY on the same connection until the process restarted.
    const lease = await leaseOnceBack(b, id);
    expect(await bNode.admin.zCard(keys.holders)).toBe(1);
    lease.release();
  });
});

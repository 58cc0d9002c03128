import { randomUUID } from 'node:crypto';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { beforeAll, describe, expect, it } from 'vitest';
import { leaseKeys } from '../src/lease-scripts';
import type { RedisBudget } from '../src/redis-budget';
import { redisForFile, request } from './budgets';

// The Redis commands one acquire and its release send, counted, not timed (issue 54: a herd of
// waiters once cost 1.5 round trips more per request, and nothing caught it). Every command a
// budget's two connections send is seen with MONITOR, attributed to the budget by the connection
// it came from (CLIENT LIST before and after the budget connects), between two marker commands.
// A count that grows (a probe or health check per acquire, a second script, a subscription per
// call, a wake-up that makes a waiter ask again) fails here.

// A long TTL: no refresh runs during a test, and a waiter further back than the limit asks again
// only every TTL/3 (100 s), so what moves it is the handover's message.
const file = redisForFile({ leaseTtlMs: 300_000, commandTimeoutMs: 60_000 });
/** MONITOR's lines so far: `<time> [<db> <address>] "<COMMAND>" …` (`lua` for a script's own). */
const lines: string[] = [];

beforeAll(async () => {
  await file.listener.monitor((line) => lines.push(String(line)));
});

async function addresses(): Promise<Set<string>> {
  const list = await file.admin.clientList();
  return new Set(list.map((c) => c.addr));
}

/** A connected budget and the addresses of its two connections. */
async function budget(): Promise<{ budget: RedisBudget; connections: Set<string> }> {
  const before = await addresses();
  const b = file.budget();
  await b.ready();
  const connections = new Set([...(await addresses())].filter((a) => !before.has(a)));
  expect(connections.size).toBe(2); // scripts, and pub/sub
  return { budget: b, connections };
}

/**
 * How many of each command each budget's connections sent while `action` ran (until the state it
 * waits for). A marker before and after bounds the window: MONITOR reports in execution order.
 * (Counts, not a sequence: the two connections' commands interleave in no fixed order.)
 */
async function commandsDuring(
  of: Record<string, Set<string>>,
  action: () => Promise<void>,
): Promise<Record<string, Record<string, number>>> {
  const marker = randomUUID();
  await file.admin.echo(`start ${marker}`);
  await action();
  await file.admin.echo(`end ${marker}`);
  await pollUntil(() => lines.some((l) => l.includes(`"end ${marker}"`)), 'the end marker');
  const start = lines.findIndex((l) => l.includes(`"start ${marker}"`));
  const end = lines.findIndex((l) => l.includes(`"end ${marker}"`));
  const sent = Object.fromEntries(
    Object.keys(of).map((name) => [name, {} as Record<string, number>]),
  );
  for (const line of lines.slice(start + 1, end)) {
    const [, address, command] = /^\S+ \[\d+ ([^\]]+)\] "([^"]+)"/.exec(line) ?? [];
    for (const [name, connections] of Object.entries(of)) {
      if (address === undefined || !connections.has(address)) continue;
      const upper = command!.toUpperCase();
      sent[name]![upper] = (sent[name]![upper] ?? 0) + 1;
    }
  }
  return sent;
}

const idle = (id: string) => async () =>
  (await file.admin.zCard(leaseKeys('infergate:budget', id).holders)) === 0 &&
  (await file.admin.zCard(leaseKeys('infergate:budget', id).queue)) === 0;

describe('Redis commands per acquire and release', () => {
  it('a free slot: one script to take it, one to give it back', async () => {
    const { budget: b, connections } = await budget();
    const id = `count-free-${randomUUID()}`;
    // The first lease of an id also subscribes this instance's wake and census channels (once).
    const first = await commandsDuring({ b: connections }, async () => {
      (await b.acquire(request(id, 4))).release();
      await pollUntil(idle(id), 'no lease nor waiter left');
    });
    expect(first.b).toEqual({ EVAL: 2, SUBSCRIBE: 2 });
    const later = await commandsDuring({ b: connections }, async () => {
      for (let i = 0; i < 3; i++) (await b.acquire(request(id, 4))).release();
      await pollUntil(idle(id), 'no lease nor waiter left');
    });
    expect(later.b).toEqual({ EVAL: 6 });
    const free = await commandsDuring({ b: connections }, async () => {
      (await b.acquireIfFree(request(id, 4)))?.release();
      await pollUntil(idle(id), 'no lease nor waiter left');
    });
    expect(free.b).toEqual({ EVAL: 2 });
    expect(b.stats.roundTrips).toBe(1 + 2 + 6 + 2); // the access check, then the scripts above
  });

  it('with waiters: a queued call sends one script to queue and one to release; the handover none', async () => {
    const id = `count-waiters-${randomUUID()}`;
    const queue = leaseKeys('infergate:budget', id).queue;
    const holder = await budget();
    const near = await budget(); // first in line: near the head, it may ask again (not counted)
    const waiter = await budget(); // second in line with a limit of 1: further back
    // Warm: each budget's first lease of the id subscribes its channels.
    for (const b of [holder, near, waiter]) (await b.budget.acquire(request(id, 1))).release();
    await pollUntil(idle(id), 'no lease nor waiter left');

    const sent = await commandsDuring(
      { holder: holder.connections, waiter: waiter.connections },
      async () => {
        const held = await holder.budget.acquire(request(id, 1));
        const nearLease = near.budget.acquire(request(id, 1));
        await pollUntil(async () => (await file.admin.zCard(queue)) === 1, 'near queued');
        const waiting = waiter.budget.acquire(request(id, 1));
        await pollUntil(async () => (await file.admin.zCard(queue)) === 2, 'waiter queued');
        held.release(); // handed to `near` by the release script
        (await nearLease).release(); // handed to `waiter`
        (await waiting).release();
        await pollUntil(idle(id), 'no lease nor waiter left');
      },
    );
    // The holder: its acquire and its release (which hands the slot over), nothing else.
    expect(sent.holder).toEqual({ EVAL: 2 });
    // The waiter: queued by its acquire, woken by the message, holding the slot without asking
    // again, then its release.
    expect(sent.waiter).toEqual({ EVAL: 2 });
  });
});

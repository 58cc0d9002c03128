import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import { otelEventsHandler } from '../src/otel/otel-events';
import { clientOn, hi } from './helpers';
import { otelRecorder } from './otel-recorder';

describe('otelEvents past its cap of open calls', () => {
  it('forgets the oldest call, and gives back what it counted: the counters stay true', async () => {
    const gateway = await emulate();
    const { tracer, meter, spans, points, reset } = otelRecorder();
    /** The sum of an up/down counter's points now. */
    const total = async (name: string) =>
      (await points<number>(name)).reduce((sum, point) => sum + point.value, 0);
    // A cap of two open calls, so that each call begun past it makes the handler choose.
    const otel = otelEventsHandler({ tracer, meter }, 2);
    const queued: number[] = [];
    const waits = new Set<() => void>();
    const onEvent = (event: GatewayEvent) => {
      otel(event);
      if (event.type === 'queued') queued.push(event.callId);
      for (const wait of waits) wait();
    };
    const untilQueued = (count: number) =>
      new Promise<void>((resolve) => {
        const wait = () => {
          if (queued.length < count) return;
          waits.delete(wait);
          resolve();
        };
        waits.add(wait);
        wait();
      });
    // One slot: the first call holds it, the others wait in the client's queue.
    const client = clientOn(gateway, { onEvent, maxConcurrency: 1 });
    await client.models();
    reset();
    const release = gateway.hold();
    const calls = [client.chat(hi())];
    await gateway.untilHeld(1);
    // Two begun at once: at the third's start, the second has not asked for a slot yet.
    calls.push(client.chat(hi()), client.chat(hi()));
    await untilQueued(3);
    calls.push(client.chat(hi()));
    await untilQueued(4);
    // While they run: the third call's start forgot the first (its slot given back), the fourth's
    // the second (its place in the queue given back): what is counted is what the kept calls hold.
    expect(await total('infergate.client.calls.queued')).toBe(2);
    expect(await total('infergate.client.slots.in_use')).toBe(0);
    release();
    await Promise.all(calls);

    const chats = spans().filter((span) => span.name.startsWith('chat '));
    expect(chats.map((span) => span.attributes['infergate.abandoned'] ?? false)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(await total('infergate.client.calls.queued')).toBe(0);
    expect(await total('infergate.client.slots.in_use')).toBe(0);
    await gateway.close();
  });
});

import { emulate, untilIdle } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { API_KEY as key } from './helpers';

describe('abandoned streams do not hold the key: a stream left unread frees its slot', () => {
  it('4 .stream() loops left with break, then 4 invokes run at once', async () => {
    const { emulator, connection } = await emulate({ scenario: { streamChunkDelayMs: 2 } });
    const model = new GatewayChatModel({ ...connection, model: 'community/general' });
    for (let i = 0; i < 4; i++) {
      const stream = await model.stream('one two three four five six');
      for await (const _chunk of stream) break;
    }
    // Abandoned stream objects that are never iterated again hold nothing either.
    const neverRead = await model.stream('seven eight nine');
    void neverRead;
    await untilIdle(emulator, { key });
    expect(emulator.counters.requests.chat).toBe(5);
    // A cut request's key slot comes back a short grace after its close (core's README).
    await model.client.budget.whenIdle();
    emulator.resetCounters();
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => model.invoke(`call ${i}`)),
    );
    expect(answers.map((answer) => answer.content)).toEqual(
      Array.from({ length: 4 }, (_, i) => `Echo: call ${i}`),
    );
    expect(emulator.counters.maxInflight[key]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });
});

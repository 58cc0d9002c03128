import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import { clientOn, DEFAULT_KEYS, hi, only } from './helpers';

// core README (`onEvent`): never the API key; a key pasted into `model` or `fallbackModels` shows
// as `[redacted]` in events, as in errors.
const KEY = DEFAULT_KEYS.full;

/** The events of `call` on a client of a fresh gateway, and what the call answered or threw. */
async function eventsOf(call: (client: ReturnType<typeof clientOn>) => Promise<unknown>) {
  const gateway = await emulate();
  const events: GatewayEvent[] = [];
  const client = clientOn(gateway, { onEvent: (event) => events.push(event) });
  const outcome = await call(client).catch((error: unknown) => error);
  return { events, outcome };
}

describe('a key pasted as a model id stays out of the events', () => {
  it('as the model: the call fails, its events name the model [redacted]', async () => {
    const { events, outcome } = await eventsOf((client) => client.chat(hi(KEY)));
    expect(outcome).toBeInstanceOf(Error);
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(only(events, 'start')[0]?.requestedModel).toBe('[redacted]');
  });

  it('in fallbackModels: skipped as [redacted], the call answered by the next model', async () => {
    const { events, outcome } = await eventsOf((client) =>
      client.chat(hi('community/nope'), { fallbackModels: [KEY, 'community/general'] }),
    );
    expect(outcome).toMatchObject({ response: { model: 'community/general' } });
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(only(events, 'model-skipped').map((event) => event.model)).toEqual([
      'community/nope',
      '[redacted]',
    ]);
  });
});

import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  askingPlace,
  clientOn,
  driveClock,
  only,
  recordingClient,
  STRUCTURED_MODELS,
  settledAfter,
} from './helpers';

// A streamed structured call over a fallback list (docs/gateway-protocol.md §4.8 item 5): while
// the walk could still move on from the answering model, core holds its stream to its end and
// checks it before anything reaches the caller, so an answer that breaks the schema moves on to
// the next model, as a whole answer's does. The last model's stream comes as it arrives.
const models = STRUCTURED_MODELS;
const SPENT = expect.objectContaining({ total_tokens: expect.any(Number) });

describe('chatStream asking for a schema over fallbackModels', () => {
  it('an answer that fails the check moves on: only the next model’s JSON reaches the caller', async () => {
    const client = clientOn(await emulate({ scenario: { models } }));
    const stream = await client.chatStream(askingPlace('community/so-claimed'), {
      fallbackModels: ['community/so-native'],
    });
    let text = '';
    for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    const result = await stream.result();
    expect(result.structured?.method).toBe('json_schema');
    expect(text).toBe(result.text);
    expect(JSON.parse(text)).toEqual(result.structured?.value);
    expect(stream.route.hops).toEqual([
      {
        model: 'community/so-claimed',
        outcome: 'failed',
        reason: 'invalid_structured_output',
        structured: { method: 'json_schema', checked: false },
        usage: SPENT,
      },
      {
        model: 'community/so-native',
        outcome: 'answered',
        structured: { method: 'json_schema', checked: true },
      },
    ]);
  });

  it('with lastAnswer returned, the refused first answer is not the one handed on', async () => {
    const client = clientOn(await emulate({ scenario: { models } }));
    const stream = await client.chatStream(askingPlace('community/so-claimed'), {
      fallbackModels: ['community/so-native'],
      structuredOutput: { lastAnswer: 'returned' },
    });
    const result = await stream.result();
    // Checked: the next model's answer, not the refused one handed on unchecked.
    expect(result.structured?.method).toBe('json_schema');
    expect(stream.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      ['community/so-claimed', 'failed'],
      ['community/so-native', 'answered'],
    ]);
  });
});

// A hedged structured stream is not held to its end, though its list could still move on
// (docs/gateway-protocol.md §4.8 item 5): a hedged call's runs race to their first content, which
// ends the hedge's wait and the other run. Held to its end, a stream whose content had come sent a
// hedge all the same, and a winning hedge left the other run reading on, its slot taken (rv-2so).
describe('a hedged chatStream asking for a schema over fallbackModels', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends no hedge once the first model’s content has come', async () => {
    const gateway = await emulate({ scenario: { models: STRUCTURED_MODELS } });
    // Content at once, then nothing for far longer than the hedge's wait.
    gateway.emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/so-native',
      afterChunks: 3,
      ms: 60_000,
    });
    const { client, events } = recordingClient(gateway);
    // On the real clock first: the steering module loaded, the catalog read.
    await client.chat(askingPlace('community/so-object'), {
      fallbackModels: ['community/so-native'],
    });
    gateway.emulator.resetCounters();
    events.length = 0;
    driveClock();
    const opened = client.chatStream(askingPlace('community/so-native'), {
      fallbackModels: ['community/so-object'],
      hedge: { afterMs: 30, maxExtra: 1 },
    });
    // Past the hedge's wait: the stream is the caller's, its content let through, no hedge sent.
    const stream = await settledAfter(100, opened);
    expect(only(events, 'hedge')).toEqual([]);
    expect(gateway.emulator.counters.requests.chat).toBe(1);
    await stream.cancel();
  });
});

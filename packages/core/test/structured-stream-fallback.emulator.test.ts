import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { askingPlace, clientOn, STRUCTURED_MODELS } from './helpers';

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

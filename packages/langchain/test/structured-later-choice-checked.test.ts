// A structured call with n > 1: `generate()` gives one generation per choice, and a later choice
// that passed core's check carries its own kwargs (its checked value as `parsed`, the forced call,
// every call the server sent in it, the finish as sent), as choice 0's does and as a later choice
// handed on unchecked does: `ChatOpenAI`'s generation 1 lists each call the server sent in it.
import { describe, expect, it } from 'vitest';
import { forcedChoicesModel, kwargsOf, placeGenerations, rawCall } from './forced-choices';

describe('n > 1: a later choice that passed its check keeps its own kwargs', () => {
  it.each([
    ['checked', {}],
    ["lastAnswer 'returned'", { structuredOutput: { lastAnswer: 'returned' as const } }],
  ])('%s: generation 1 has its parsed value and every call sent in it', async (_, asked) => {
    const model = await forcedChoicesModel(
      ['{"city":"Oslo"}', '{"city":"Rome"}'],
      ['lookup', '{"q":1}'],
    );
    const [zero, one] = await placeGenerations(model, asked);
    expect(kwargsOf(zero).parsed).toEqual({ city: 'Oslo' });
    expect(one.text).toBe('{"city":"Rome"}');
    expect(kwargsOf(one).parsed).toEqual({ city: 'Rome' });
    expect(kwargsOf(one).structured_tool_call).toEqual(rawCall('c1', 'place', '{"city":"Rome"}'));
    expect(kwargsOf(one).sent_tool_calls).toEqual([
      rawCall('c1', 'place', '{"city":"Rome"}'),
      rawCall('x1', 'lookup', '{"q":1}'),
    ]);
    expect(kwargsOf(one).sent_finish_reason).toBe('tool_calls');
  });
});

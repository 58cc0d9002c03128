// A structured call with n > 1 and `structuredOutput.lastAnswer: 'returned'`: `generate()` gives one
// generation per choice, and a later choice core handed on unchecked carries its own kwargs (the
// forced call it made, every call, the finish the server sent), not choice 0's or none.
import { describe, expect, it } from 'vitest';
import { forcedChoicesModel, kwargsOf, placeGenerations, rawCall } from './forced-choices';

describe("n > 1, lastAnswer 'returned': a later choice handed on unchecked keeps its own kwargs", () => {
  it('generate(): choice 1 (failing) has its forced call and finish as sent; choice 0 (passing) its own', async () => {
    const model = await forcedChoicesModel(['{"city":"Oslo"}', '{"town":5}']);
    const [zero, one] = await placeGenerations(model, {
      structuredOutput: { lastAnswer: 'returned' },
    });
    expect(kwargsOf(zero).parsed).toEqual({ city: 'Oslo' });
    expect(kwargsOf(one).parsed).toBeUndefined();
    expect(one.text).toBe('{"town":5}');
    expect(kwargsOf(one).structured_tool_call).toEqual(rawCall('c1', 'place', '{"town":5}'));
    expect(kwargsOf(one).sent_tool_calls).toEqual([rawCall('c1', 'place', '{"town":5}')]);
    expect(kwargsOf(one).sent_finish_reason).toBe('tool_calls');
  });
});

import { describe, expect, it } from 'vitest';
import { sendsReasoningBack } from './reasoning-sent-back';

describe('sendsReasoningBack', () => {
  it('unset: only a turn that made tool calls; true: every turn; false: none', () => {
    expect(sendsReasoningBack(undefined, true)).toBe(true);
    expect(sendsReasoningBack(undefined, false)).toBe(false);
    expect(sendsReasoningBack(true, false)).toBe(true);
    expect(sendsReasoningBack(true, true)).toBe(true);
    expect(sendsReasoningBack(false, true)).toBe(false);
    expect(sendsReasoningBack(false, false)).toBe(false);
  });

  it('refuses a value that is not a boolean, naming the option, its place and the value', () => {
    for (const [given, got] of [
      ['yes', 'a string'],
      [1, '1'],
      [null, 'null'],
    ] as const) {
      const refused = () => sendsReasoningBack(given as unknown as boolean, true);
      expect(refused).toThrow(
        expect.objectContaining({
          code: 'configuration_error',
          field: 'sendReasoning',
          message: `sendReasoning (model setting) must be a boolean, got ${got}`,
        }),
      );
    }
  });
});

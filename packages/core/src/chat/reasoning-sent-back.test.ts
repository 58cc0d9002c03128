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
});

import { describe, expect, it } from 'vitest';
import { sendsReasoningBack } from './reasoning-sent-back';

// A setting that is not a boolean is refused when the model is built (core's `readFlags`), as the
// adapters' tests show through their entry points: ai-sdk's `gateway()(id, settings)`
// (test/unknown-options.test.ts) and LangChain's `new GatewayChatModel` (test/reasoning.test.ts).
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

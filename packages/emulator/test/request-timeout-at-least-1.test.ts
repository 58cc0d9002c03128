import { describe, expect, it } from 'vitest';
import { createEmulator, ScenarioError } from '../src/index';
import { caught } from '../src/testing/index';

// `requestTimeoutMs: 0` was accepted, then every request with a body was answered 504 before its
// first byte was read (and every GET 200): a scenario that cannot work, so it is refused.

describe('requestTimeoutMs', () => {
  it.each([0, 0.5, -1])(
    '%s is refused with a ScenarioError naming the field and the value',
    async (value) => {
      const error = await caught(() => createEmulator({ requestTimeoutMs: value }));
      expect(error).toBeInstanceOf(ScenarioError);
      expect(error.message).toBe(`requestTimeoutMs must be a number ≥ 1, got ${value}`);
    },
  );

  it('1 is accepted', () => {
    expect(createEmulator({ requestTimeoutMs: 1 }).scenario.requestTimeoutMs).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { refusedKwargs } from './refused-before-sending';

/**
 * Core's call options that GatewayChatModel does not take (`onResponse`, a stream's `rawChunks`,
 * `assemble`, `onHeaders`) given in `modelKwargs`, a model's or a call's: they used to be sent to
 * the model server as request fields and do nothing. Refused by core's rule before any request, in
 * this model's words (not core's "second argument" of `client.chat`).
 */
describe("core's call options in modelKwargs are refused, not sent", () => {
  it.each([
    ['onResponse', () => {}],
    ['rawChunks', true],
    ['assemble', true],
    ['onHeaders', () => {}],
  ])('%s', async (key, value) => {
    const { refusals, bodies } = await refusedKwargs(() => ({ [key]: value }));
    for (const [error, code] of refusals) {
      expect(error).toMatchObject({ code, field: key });
      expect(error.message).toMatch(/modelKwargs is a call option, not a request field/);
      expect(error.message).toContain(`\`${key}\` in `);
      expect(error.message).toContain('GatewayChatModel does not');
      expect(error.message).not.toContain('second argument');
    }
    expect(bodies).toHaveLength(0);
  });
});

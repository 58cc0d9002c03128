import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/errors';
import type { ChatRouteHop } from '../protocol/chat-route';
import { ALL_FAILED_MESSAGE_CHARS, allFailedMessage } from './all-failed-message';
import type { FailedHop } from './failover-walk';

const busy = (model: string, message = 'The model is at capacity'): FailedHop => ({
  model,
  error: new GatewayError({ code: 'model_busy', message, status: 429, retryAfterMs: 0 }),
});

describe('allFailedMessage', () => {
  it('is undefined for one failure and nothing skipped, or nothing tried', () => {
    expect(allFailedMessage([busy('a')], [])).toBeUndefined();
    const skipped: ChatRouteHop[] = [{ model: 'z', outcome: 'skipped', reason: 'circuit_open' }];
    expect(allFailedMessage([], skipped)).toBeUndefined();
  });

  it("groups a model's attempts by reason, the models in the order of their last failure, then the skipped models", () => {
    const failed = [busy('a'), busy('b'), busy('a'), busy('a', 'last words')];
    const hops: ChatRouteHop[] = [{ model: 'c', outcome: 'skipped', reason: 'circuit_open' }];
    expect(allFailedMessage(failed, hops)).toBe(
      'Every model tried failed (4 attempts): "b": model_busy (The model is at capacity); ' +
        '"a": 3 × model_busy (last words); "c": skipped (circuit_open)',
    );
    // The model that ended the call closes the tried ones, though it failed first too.
    const endedByA = [busy('a'), busy('b'), busy('b'), busy('a', 'last words')];
    expect(allFailedMessage(endedByA, [])).toBe(
      'Every model tried failed (4 attempts): "b": 2 × model_busy (The model is at capacity); ' +
        '"a": 2 × model_busy (last words)',
    );
  });

  it('names one failed model when the others were skipped', () => {
    const hops: ChatRouteHop[] = [{ model: 'z', outcome: 'skipped', reason: 'not_in_catalog' }];
    expect(allFailedMessage([busy('a')], hops)).toMatch(
      /^Every model tried failed \(1 attempt\): "a": model_busy .*; "z": skipped \(not_in_catalog\)$/,
    );
  });

  it('names the end of a call that ended while waiting, without counting it as an attempt', () => {
    const aborted = new GatewayError({ code: 'aborted', message: 'The call was aborted' });
    const failed: FailedHop[] = [
      busy('a'),
      busy('b'),
      { model: 'a', error: aborted, waiting: true },
    ];
    expect(allFailedMessage(failed, [])).toBe(
      'Every model tried failed (2 attempts): "b": model_busy (The model is at capacity); ' +
        '"a": model_busy, then aborted while waiting to retry (The call was aborted)',
    );
    // Waiting for the slot of a model not tried yet (after a failover).
    const queued: FailedHop[] = [busy('a'), { model: 'b', error: aborted, waiting: true }];
    expect(allFailedMessage(queued, [])).toBe(
      'Every model tried failed (1 attempt): "a": model_busy (The model is at capacity); ' +
        '"b": aborted before it was sent (The call was aborted)',
    );
  });

  it('escapes control characters in ids and messages, and cuts them', () => {
    const message = allFailedMessage(
      [busy('a\nINFO forged'), busy('b', `\u001b[2K${'y'.repeat(10_000)}`)],
      [],
    )!;
    expect(message).toContain('"a\\nINFO forged"');
    expect(message).toContain('(\\u001b[2Kyyy');
    expect(message.length).toBeLessThan(600);
  });

  it('stays within its bound, counting the models it leaves out', () => {
    const failed = Array.from({ length: 500 }, (_, i) => busy(`${i}-${'m'.repeat(300)}`));
    const skipped: ChatRouteHop[] = Array.from({ length: 500 }, (_, i) => ({
      model: `s${i}`,
      outcome: 'skipped',
      reason: 'circuit_open',
    }));
    const message = allFailedMessage(failed, skipped)!;
    expect(message.length).toBeLessThanOrEqual(ALL_FAILED_MESSAGE_CHARS);
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(64 * 1024);
    expect(message).toMatch(/; and \d+ more models \(see route\)$/);
  });
});

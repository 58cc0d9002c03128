import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/errors';
import {
  CIRCUIT_BREAKER_OPTIONS,
  HEDGE_OPTIONS,
  readNumber,
  refuseNearMisses,
  refuseUnknownInGroup,
  refuseUnknownOptions,
} from './option-groups';

describe('refuseUnknownOptions (an object wholly ours)', () => {
  it('names the closest known key, or lists them when none is close', async () => {
    const known = ['afterMs', 'maxExtra'];
    expect(
      await caught(
        () => refuseUnknownOptions({ after: 1 }, known, 'hedge', 'call option'),
        isGatewayError,
      ),
    ).toMatchObject({
      code: 'invalid_request_error',
      field: 'after',
      message: 'unknown option `after` in hedge — did you mean `afterMs`?',
    });
    expect(
      (
        await caught(
          () => refuseUnknownOptions({ zzz: 1 }, known, 'hedge', 'client option'),
          isGatewayError,
        )
      ).message,
    ).toBe('unknown option `zzz` in hedge; known: afterMs, maxExtra');
  });

  it('takes known keys (undefined too) and ignores symbol keys', () => {
    expect(() =>
      refuseUnknownOptions(
        { afterMs: undefined, [Symbol('x')]: 1 },
        ['afterMs'],
        'hedge',
        'call option',
      ),
    ).not.toThrow();
  });
});

describe('refuseUnknownInGroup (a group inside the options given)', () => {
  it("names the key by its path from the options, in the group's words", async () => {
    expect(
      await caught(
        () => refuseUnknownInGroup(HEDGE_OPTIONS, { after: 1 }, 'call option'),
        isGatewayError,
      ),
    ).toMatchObject({
      code: 'invalid_request_error',
      field: 'hedge.after',
      message: 'unknown option `after` in hedge — did you mean `afterMs`?',
    });
    expect(
      await caught(
        () => refuseUnknownInGroup(CIRCUIT_BREAKER_OPTIONS, { failure: 2 }, 'client option'),
        isGatewayError,
      ),
    ).toMatchObject({ code: 'configuration_error', field: 'circuitBreaker.failure' });
  });

  it("takes the group's own keys", () => {
    expect(() =>
      refuseUnknownInGroup(HEDGE_OPTIONS, { afterMs: 1, maxExtra: undefined }, 'client option'),
    ).not.toThrow();
  });
});

describe('refuseNearMisses (an object shared with a framework or the model server)', () => {
  const ours = ['fallbackModels', 'streamUsage', 'hedge'];
  it('refuses a near miss of ours', async () => {
    expect(
      (
        await caught(
          () => refuseNearMisses({ fallbackModel: [] }, ours, [], 'x', 'call option'),
          isGatewayError,
        )
      ).message,
    ).toBe('unknown option `fallbackModel` in x — did you mean `fallbackModels`?');
  });

  it('passes theirs: listed, with an `_`, or not close to ours (edit distance only)', () => {
    expect(() =>
      refuseNearMisses(
        { callbacks: [], top_k: 3, stream: true, user: 'u', hedges: undefined },
        ours,
        ['callbacks', 'hedges'],
        'x',
        'call option',
      ),
    ).not.toThrow();
  });

  it("refuses core's steering or timeout option spelled another way, with an `_` (never sent)", async () => {
    const near = async (given: object, hints = {}) =>
      (
        await caught(
          () => refuseNearMisses(given, ours, [], 'x', 'call option', hints),
          isGatewayError,
        )
      ).message;
    expect(await near({ fallback_models: [] })).toBe(
      'unknown option `fallback_models` in x — did you mean `fallbackModels`?',
    );
    expect(await near({ Fallback_Models: [] })).toContain('did you mean `fallbackModels`?');
    expect(await near({ timeout_ms: 5 }, { timeoutMs: 'use `timeout`' })).toBe(
      'unknown option `timeout_ms` in x — use `timeout`',
    );
    // One that is neither ours here nor hinted is a request field, like any other.
    expect(() =>
      refuseNearMisses({ chunk_timeout_ms: 5 }, ours, [], 'x', 'call option'),
    ).not.toThrow();
  });

  it("refuses a key with a hint (one of core's names given in the wrong place), saying where it goes", async () => {
    const hints = { timeoutMs: 'use `timeout`', circuitBreaker_x: 'elsewhere' };
    const error = await caught(
      () => refuseNearMisses({ timeoutMs: 5 }, ours, [], 'x', 'model setting', hints),
      isGatewayError,
    );
    expect([error.code, error.field, error.message]).toEqual([
      'configuration_error',
      'timeoutMs',
      'unknown option `timeoutMs` in x — use `timeout`',
    ]);
    // Even with an `_`; an undefined value is not given.
    expect(() =>
      refuseNearMisses({ circuitBreaker_x: 1 }, ours, [], 'x', 'call option', hints),
    ).toThrow('elsewhere');
    expect(() =>
      refuseNearMisses({ timeoutMs: undefined }, ours, [], 'x', 'call option', hints),
    ).not.toThrow();
  });
});

describe('readNumber (the one check of a number option)', () => {
  it('bounds an integer by its max when it has one, naming the unit, the place and what was given', async () => {
    const field = { kind: 'integer', min: 0, max: 10, unit: 'ms' } as const;
    expect(readNumber(10, field, 'waitMs', 'createThing option')).toBe(10);
    expect(() => readNumber(11, field, 'waitMs', 'createThing option')).toThrow(
      'waitMs (createThing option) must be an integer of ms from 0 to 10, got 11',
    );
    const error = await caught(
      async () => readNumber('x', field, 'waitMs', 'createThing option'),
      isGatewayError,
    );
    expect(error).toMatchObject({ code: 'configuration_error', field: 'waitMs' });
    expect(error.message).toMatch(/got a string$/);
    // An empty string is named as one (it holds nothing to hide), so "non-empty" reads true.
    expect(() => readNumber('', field, 'waitMs', 'createThing option')).toThrow(
      /got an empty string$/,
    );
    // Without a max: the least value only (a call option's refusal is the request's fault).
    expect(() => readNumber(0, { kind: 'integer', min: 1 }, 'n', 'call option')).toThrow(
      'n (call option) must be an integer ≥ 1, got 0',
    );
  });
});

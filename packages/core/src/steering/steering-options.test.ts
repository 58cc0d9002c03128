import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { NO_CLIENT_STEERING } from '../../test/helpers';
import { readFallbackModels, readHedge, readStallTimeout } from '../call/steering-option-values';
import { isGatewayError } from '../errors/errors';
import {
  readCircuitBreaker,
  readSteering,
  resolveSteering,
  type SteeringPlace,
  steers,
} from './steering-options';

const PLACES: [SteeringPlace, string][] = [
  ['client option', 'configuration_error'],
  ['model setting', 'configuration_error'],
  ['call option', 'invalid_request_error'],
];

describe('readFallbackModels (the one reader of fallbackModels)', () => {
  it('takes a list of distinct model ids, as given; absent or empty is no list', () => {
    expect(readFallbackModels(['b', 'c'], 'call option', 'a')).toEqual(['b', 'c']);
    expect(readFallbackModels(undefined, 'call option', 'a')).toBeUndefined();
    expect(readFallbackModels([], 'call option', 'a')).toBeUndefined();
  });

  it.each([
    ['a string', 'b', 'fallbackModels', 'must be an array of model ids, got a string'],
    ['null', null, 'fallbackModels', 'got null'],
    ['an object', { 0: 'b' }, 'fallbackModels', 'got an object'],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case
    ['a hole', [, 'b'], 'fallbackModels[0]', 'is a hole in the array'],
    ['new Array(2)', new Array(2), 'fallbackModels[0]', 'is a hole in the array'],
    ['a number', ['b', 42], 'fallbackModels[1]', 'got a number'],
    ['a nested list', [['b']], 'fallbackModels[0]', 'got an array'],
    ['an empty id', [''], 'fallbackModels[0]', 'got an empty string'],
    ['a blank id', ['b', '  '], 'fallbackModels[1]', 'got an empty string'],
    ['a repeated id', ['b', 'c', 'b'], 'fallbackModels[2]', 'repeats fallbackModels[0]'],
    ["the call's own model", ['b', 'a'], 'fallbackModels[1]', "repeats the call's own model"],
  ] as const)('refuses %s, naming the entry and the place', async (_name, value, field, what) => {
    for (const [place, code] of PLACES) {
      const error = await caught(() => readFallbackModels(value, place, 'a'), isGatewayError);
      expect(error).toMatchObject({ code, field });
      expect(error.message).toContain(`${field} (${place})`);
      expect(error.message).toContain(what);
    }
  });

  it('names a wrong value by its type only (it may hold what no redactor knows)', async () => {
    const error = await caught(
      () => readFallbackModels([{ apiKey: 'sk-live-secret' }], 'call option', 'a'),
      isGatewayError,
    );
    expect(error.message).not.toContain('sk-live-secret');
    expect(JSON.stringify(error)).not.toContain('sk-live-secret');
  });

  it('without a primary (a client option or model setting) checks the list alone', () => {
    expect(readFallbackModels(['a', 'b'], 'model setting')).toEqual(['a', 'b']);
  });
});

describe('readStallTimeout', () => {
  it('takes a finite number of ms > 0, clamped to the longest timer', () => {
    expect(readStallTimeout(250, 'firstChunkTimeoutMs', 'call option')).toBe(250);
    expect(readStallTimeout(2 ** 40, 'chunkTimeoutMs', 'client option')).toBe(2 ** 31 - 1);
    expect(readStallTimeout(undefined, 'chunkTimeoutMs', 'call option')).toBeUndefined();
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '100', null])(
    'refuses %s',
    async (value) => {
      for (const [place, code] of PLACES) {
        const error = await caught(
          () => readStallTimeout(value, 'firstChunkTimeoutMs', place),
          isGatewayError,
        );
        expect(error).toMatchObject({ code, field: 'firstChunkTimeoutMs' });
        expect(error.message).toContain(`firstChunkTimeoutMs (${place}) must be a finite number`);
      }
    },
  );
});

describe('readHedge', () => {
  it("takes { afterMs: ms > 0 | 'auto', maxExtra?: (0, 1] } with maxExtra's default, or false", () => {
    expect(readHedge({ afterMs: 200 }, 'call option')).toEqual({ afterMs: 200, maxExtra: 0.1 });
    expect(readHedge({ afterMs: 'auto', maxExtra: 1 }, 'client option')).toEqual({
      afterMs: 'auto',
      maxExtra: 1,
    });
    expect(readHedge(false, 'call option')).toBe(false);
    expect(readHedge(undefined, 'call option')).toBeUndefined();
  });

  it.each([
    ['true', true, 'hedge'],
    ['a number', 200, 'hedge'],
    ['a list', [200], 'hedge'],
    ['no afterMs', {}, 'hedge.afterMs'],
    ['afterMs 0', { afterMs: 0 }, 'hedge.afterMs'],
    ['afterMs a word', { afterMs: 'soon' }, 'hedge.afterMs'],
    ['maxExtra 0', { afterMs: 100, maxExtra: 0 }, 'hedge.maxExtra'],
    ['maxExtra above 1', { afterMs: 100, maxExtra: 1.5 }, 'hedge.maxExtra'],
    ['maxExtra a string', { afterMs: 100, maxExtra: '5%' }, 'hedge.maxExtra'],
  ] as const)('refuses %s, naming the field', async (_name, value, field) => {
    for (const [place, code] of PLACES) {
      expect(await caught(() => readHedge(value, place), isGatewayError)).toMatchObject({
        code,
        field,
      });
    }
  });
});

describe('readHedge: unknown keys', () => {
  it.each([
    ['client option', 'configuration_error'],
    ['call option', 'invalid_request_error'],
  ] as const)('refuses `after` as a %s, naming `afterMs` (%s)', async (place, code) => {
    const error = await caught(() => readHedge({ after: 200 }, place), isGatewayError);
    expect(error).toMatchObject({ code, field: 'hedge.after' });
    expect(error.message).toBe('unknown option `after` in hedge — did you mean `afterMs`?');
  });

  it('names a missing afterMs as missing, not "a undefined"', async () => {
    expect((await caught(() => readHedge({}, 'client option'), isGatewayError)).message).toContain(
      'got nothing',
    );
  });
});

describe('readCircuitBreaker (a client option)', () => {
  it('is on by default, with its defaults; false turns it off', () => {
    expect(readCircuitBreaker(undefined)).toEqual({
      failures: 3,
      cooldownMs: 5_000,
      maxCooldownMs: 60_000,
      failureShare: 0.2,
    });
    expect(readCircuitBreaker({})).toEqual(readCircuitBreaker(undefined));
    expect(readCircuitBreaker(false)).toBe(false);
  });

  it('raises the default longest cooldown to a longer first one given alone', () => {
    expect(readCircuitBreaker({ failures: 5, cooldownMs: 90_000 })).toEqual({
      failures: 5,
      cooldownMs: 90_000,
      maxCooldownMs: 90_000,
      failureShare: 0.2,
    });
  });

  it('refuses a first cooldown longer than the longest given (contradictory)', async () => {
    const error = await caught(
      () => readCircuitBreaker({ cooldownMs: 10_000, maxCooldownMs: 1_000 }),
      isGatewayError,
    );
    expect(error).toMatchObject({
      code: 'configuration_error',
      field: 'circuitBreaker.cooldownMs',
    });
    expect(error.message).toContain('(10000) is more than circuitBreaker.maxCooldownMs (1000)');
  });

  it('refuses an unknown key, naming the closest known one', async () => {
    const error = await caught(() => readCircuitBreaker({ failure: 2 }), isGatewayError);
    expect(error).toMatchObject({ code: 'configuration_error', field: 'circuitBreaker.failure' });
    expect(error.message).toBe(
      'unknown option `failure` in circuitBreaker — did you mean `failures`?',
    );
  });

  it.each([
    ['true', true, 'circuitBreaker'],
    ['a string', 'on', 'circuitBreaker'],
    ['null', null, 'circuitBreaker'],
    ['failures 0', { failures: 0 }, 'circuitBreaker.failures'],
    ['failures not an integer', { failures: 1.5 }, 'circuitBreaker.failures'],
    ['cooldownMs -1', { cooldownMs: -1 }, 'circuitBreaker.cooldownMs'],
    ['maxCooldownMs a string', { maxCooldownMs: '1m' }, 'circuitBreaker.maxCooldownMs'],
    ['failureShare 0', { failureShare: 0 }, 'circuitBreaker.failureShare'],
    ['failureShare above 1', { failureShare: 1.5 }, 'circuitBreaker.failureShare'],
  ] as const)('refuses %s with configuration_error', async (_name, value, field) => {
    const error = await caught(() => readCircuitBreaker(value), isGatewayError);
    expect(error).toMatchObject({ code: 'configuration_error', field });
    expect(error.message).toContain(`${field} (client option)`);
  });
});

describe('readSteering', () => {
  it("reads every option at the place given, with the call's model as primary", async () => {
    expect(
      readSteering(
        { fallbackModels: ['b'], firstChunkTimeoutMs: 100, hedge: { afterMs: 50 } },
        'call option',
        'a',
      ),
    ).toEqual({
      fallbackModels: ['b'],
      firstChunkTimeoutMs: 100,
      chunkTimeoutMs: undefined,
      hedge: { afterMs: 50, maxExtra: 0.1 },
      structuredOutputMethods: ['json_schema', 'tools', 'json_object'],
    });
    expect(
      await caught(
        () => readSteering({ fallbackModels: ['a'] }, 'call option', 'a'),
        isGatewayError,
      ),
    ).toMatchObject({ code: 'invalid_request_error', field: 'fallbackModels[0]' });
    expect(
      await caught(() => readSteering({ chunkTimeoutMs: 0 }, 'model setting'), isGatewayError),
    ).toMatchObject({
      code: 'configuration_error',
      field: 'chunkTimeoutMs',
    });
  });

  it("reads a model's structuredOutput where it is given: its methods, its misplaced standard", async () => {
    const methods = { structuredOutput: { methods: ['tools', 'tools'] } } as never;
    const bad = await caught(() => readSteering(methods, 'model setting'), isGatewayError);
    expect(bad).toMatchObject({
      code: 'configuration_error',
      field: 'structuredOutput.methods[1]',
    });
    expect(bad.message).toContain('structuredOutput.methods[1] (model setting) repeats');
    const standard = {
      '~standard': { version: 1, vendor: 'test', validate: () => ({ value: 1 }) },
    };
    const misplaced = await caught(
      () => readSteering({ structuredOutput: { standard } } as never, 'model setting'),
      isGatewayError,
    );
    expect(misplaced).toMatchObject({
      code: 'configuration_error',
      field: 'structuredOutput.standard',
    });
    expect(misplaced.message).toMatch(/\(model setting\) is a call option only/);
    expect(
      readSteering({ structuredOutput: { methods: ['tools'] } }, 'model setting'),
    ).toMatchObject({ structuredOutputMethods: ['tools'] });
  });
});

describe('resolveSteering (a model setting, then the call)', () => {
  it("takes the call's value field by field, the model's where the call has none", () => {
    expect(
      resolveSteering(
        { fallbackModels: ['m1'], firstChunkTimeoutMs: 100, chunkTimeoutMs: 200 },
        { firstChunkTimeoutMs: 50, hedge: { afterMs: 10 } },
      ),
    ).toEqual({
      fallbackModels: ['m1'],
      firstChunkTimeoutMs: 50,
      chunkTimeoutMs: 200,
      hedge: { afterMs: 10 },
    });
    expect(resolveSteering({ fallbackModels: ['m1'] }, { fallbackModels: ['c1'] })).toEqual({
      fallbackModels: ['c1'],
    });
    expect(resolveSteering(undefined, undefined)).toEqual({});
  });

  it("turns the model's list off with the call's [] and its hedge with false", () => {
    const model = { fallbackModels: ['m1'], hedge: { afterMs: 10 } };
    expect(resolveSteering(model, { fallbackModels: [], hedge: false })).toEqual({ hedge: false });
    expect(resolveSteering({ fallbackModels: [] }, undefined)).toEqual({});
  });

  it('passes values on as given: the call checks them (readSteering)', () => {
    const bad = { fallbackModels: 'm1' as unknown as string[] };
    expect(resolveSteering(bad, undefined)).toEqual(bad);
  });
});

describe('steers (whether the steering module loads for a call)', () => {
  const none = NO_CLIENT_STEERING;

  it("is true for a list, a stall timeout or a hedge, the call's or the client's", () => {
    expect(steers(undefined, none)).toBe(false);
    expect(steers({ fallbackModels: [] }, none)).toBe(false);
    expect(steers({ fallbackModels: ['b'] }, none)).toBe(true);
    // A list that is not one still steers: the steering module's reader refuses it.
    expect(steers({ fallbackModels: 'b' as unknown as string[] }, none)).toBe(true);
    expect(steers({ chunkTimeoutMs: 10 }, none)).toBe(true);
    expect(steers(undefined, { ...none, firstChunkTimeoutMs: 10 })).toBe(true);
    expect(steers({ hedge: { afterMs: 10 } }, none)).toBe(true);
    expect(steers(undefined, { ...none, hedge: { afterMs: 10, maxExtra: 0.05 } })).toBe(true);
    expect(steers({ hedge: false }, { ...none, hedge: { afterMs: 10, maxExtra: 0.05 } })).toBe(
      false,
    );
  });
});

// Core's option names that a model's fields or a call's options do not take are refused, saying
// where each goes (core's README, "Unknown keys are refused"): LangChain keeps unknown keys, so
// `circuitBreaker: false` or a call's `timeoutMs` would otherwise do nothing, quietly.
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { emulator, connection } = emulated;

/** The GatewayError a construction or a call is refused with. */
const thrown = (run: () => unknown) => caught(run, isGatewayError);

const CLIENT = 'a client option: pass `client: createGatewayClient({…})`';

describe("new GatewayChatModel({...}) with core's client options", () => {
  it.each([
    [{ circuitBreaker: false }, 'circuitBreaker', CLIENT],
    [{ maxRetryAfterMs: 1 }, 'maxRetryAfterMs', CLIENT],
    [{ catalogTtlMs: 0 }, 'catalogTtlMs', CLIENT],
    [{ timeoutMs: 100 }, 'timeoutMs', 'use `timeout`'],
  ])('refuses %o, saying where it goes', async (fields, key, where) => {
    const error = await thrown(
      () => new GatewayChatModel({ model: 'community/general', ...connection, ...fields }),
    );
    expect(error.code).toBe('configuration_error');
    expect(error.field).toBe(key);
    expect(error.message).toBe(`unknown option \`${key}\` in new GatewayChatModel — ${where}`);
  });

  it('takes one given as undefined (not given)', () => {
    const fields = { model: 'community/general', ...connection, circuitBreaker: undefined };
    expect(() => new GatewayChatModel(fields)).not.toThrow();
  });
});

describe(".invoke(input, {...}) with core's options", () => {
  it.each([
    [{ timeoutMs: 100 }, 'timeoutMs', 'use `timeout`'],
    [{ circuitBreaker: false }, 'circuitBreaker', CLIENT],
    [{ maxRetryAfterMs: 1 }, 'maxRetryAfterMs', CLIENT],
  ])('refuses %o before any request, saying where it goes', async (options, key, where) => {
    const model = new GatewayChatModel({ model: 'community/general', ...connection });
    const before = emulator.counters.requests.chat;
    const error = await thrown(() => model.invoke('hello', options as never));
    expect(error).toMatchObject({ code: 'invalid_request_error', field: key });
    expect(error.message).toBe(`unknown option \`${key}\` in call options — ${where}`);
    expect(emulator.counters.requests.chat).toBe(before);
  });

  it('refuses one bound with bindTools (it would be sent as a request field)', async () => {
    const model = new GatewayChatModel({ model: 'community/tools', ...connection });
    const error = await thrown(() => model.bindTools([], { timeoutMs: 100 } as never));
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'timeoutMs' });
    expect(error.message).toContain('use `timeout`');
  });

  it("still takes LangChain's `timeout` and `maxRetries`", async () => {
    const model = new GatewayChatModel({
      model: 'community/general',
      ...connection,
      timeout: 5000,
    });
    expect((await model.invoke('hello', { timeout: 5000, maxRetries: 0 })).text).toContain('hello');
  });
});

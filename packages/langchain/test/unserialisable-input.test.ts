import { isGatewayError } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { gateway } from './helpers';

/**
 * Input JSON cannot carry (here in `modelKwargs`, the extra request fields) is refused before
 * sending through LangChain's own entry points: a typed GatewayError naming the field (issue 28).
 */
function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { tag: 'x' };
  value.self = value;
  return value;
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

function expectRefusal(error: unknown, field: string): void {
  expect(isGatewayError(error)).toBe(true);
  expect(error).toMatchObject({ code: 'invalid_request_error', field, isRetryable: false });
}

describe('unserialisable input through LangChain (issue 28)', () => {
  it('invoke with a cyclic modelKwargs field: invalid_request_error naming it, nothing sent', async () => {
    const { emulator, connection } = gateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      maxRetries: 0,
      modelKwargs: { metadata: cyclic() },
    });
    expectRefusal(await failure(() => model.invoke('hi')), 'metadata.self');
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
  });

  it('invoke with a BigInt in the call’s modelKwargs: invalid_request_error naming it', async () => {
    const { emulator, connection } = gateway();
    const model = new GatewayChatModel('community/general', { ...connection, maxRetries: 0 });
    const error = await failure(() =>
      model.invoke('hi', { modelKwargs: { metadata: { id: 12n } } } as never),
    );
    expectRefusal(error, 'metadata.id');
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
  });

  it('stream with a cyclic modelKwargs field: the same refusal', async () => {
    const { emulator, connection } = gateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      maxRetries: 0,
      modelKwargs: { metadata: cyclic() },
    });
    const error = await failure(async () => {
      for await (const _ of await model.stream('hi')) {
        // nothing arrives
      }
    });
    expectRefusal(error, 'metadata.self');
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
  });
});

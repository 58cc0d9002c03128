import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel, type GatewayChatModelFields } from '../src/index';

/**
 * Input JSON cannot carry (here in `modelKwargs`, the extra request fields) is refused before
 * sending through LangChain's own entry points: a typed GatewayError naming the field, not
 * JSON.stringify's raw TypeError.
 */
function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { tag: 'x' };
  value.self = value;
  return value;
}

describe('unserialisable input through LangChain: refused before sending, naming the field', () => {
  it.each<
    [string, Partial<GatewayChatModelFields>, (model: GatewayChatModel) => Promise<unknown>, string]
  >([
    [
      'invoke with a cyclic modelKwargs field: invalid_request_error naming it, nothing sent',
      { modelKwargs: { metadata: cyclic() } },
      (model) => model.invoke('hi'),
      'metadata.self',
    ],
    [
      'invoke with a BigInt in the call’s modelKwargs: invalid_request_error naming it',
      {},
      (model) => model.invoke('hi', { modelKwargs: { metadata: { id: 12n } } } as never),
      'metadata.id',
    ],
    [
      'stream with a cyclic modelKwargs field: the same refusal',
      { modelKwargs: { metadata: cyclic() } },
      async (model) => {
        for await (const _ of await model.stream('hi')) {
          // nothing arrives
        }
      },
      'metadata.self',
    ],
  ])('%s', async (_name, fields, run, field) => {
    const { emulator, connection } = await emulate();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      maxRetries: 0,
      ...fields,
    });
    const error = await caught(run(model));
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_request_error', field, isRetryable: false });
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
  });
});

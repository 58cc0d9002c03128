// A model's hedge that its own stall timeout leaves unsent is refused when the model is made
// (core's `readSteering` checks a model's settings together, as a client's at creation), a
// `configuration_error` naming the setting, not at each call as a call option's mistake.
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

describe('new GatewayChatModel({ hedge, firstChunkTimeoutMs }) that contradict', () => {
  it('is refused at construction as a model setting', async () => {
    const { bodies, connection } = await recordingGateway();
    const error = await caught(
      () =>
        new GatewayChatModel({
          model: 'community/general',
          ...connection,
          hedge: { afterMs: 500 },
          firstChunkTimeoutMs: 100,
        }),
      isGatewayError,
    );
    expect(error.code).toBe('configuration_error');
    expect(error.field).toBe('hedge.afterMs');
    expect(error.message).toBe(
      'hedge.afterMs (model setting) (500) is not less than firstChunkTimeoutMs (100): the stall moves the call on before the hedge is due',
    );
    expect(bodies).toEqual([]);
  });

  it('a hedge due before the stall timeout is taken', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel({
      model: 'community/general',
      ...connection,
      hedge: { afterMs: 100 },
      firstChunkTimeoutMs: 500,
    });
    expect((await model.invoke('hello')).text).toContain('hello');
  });
});

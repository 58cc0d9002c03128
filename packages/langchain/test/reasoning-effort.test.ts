// Reasoning effort (docs/gateway-protocol.md §4.1): the `reasoningEffort` field and call option are
// sent as `reasoning_effort`, as `ChatOpenAI` sends its own.

import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { recordingGateway } from './helpers';

describe('reasoning effort', () => {
  it('the field is sent as reasoning_effort by invoke and stream, and traced', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/reasoner', {
      ...connection,
      reasoningEffort: 'low',
    });
    expect((await model.invoke('hi')).content).toBe('Echo: hi');
    for await (const _chunk of await model.stream('hi')) {
      // read to the end
    }
    expect(bodies.map((body) => body.reasoning_effort)).toEqual(['low', 'low']);
    expect(bodies[0]).not.toHaveProperty('reasoningEffort');
    expect(model.invocationParams()).toMatchObject({ reasoning_effort: 'low' });
  });

  it("a call's reasoningEffort wins over the model's, bound by bindTools or withConfig too", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/reasoner', {
      ...connection,
      reasoningEffort: 'low',
    });
    await model.invoke('hi', { reasoningEffort: 'high' });
    await model.bindTools([], { reasoningEffort: 'minimal' }).invoke('hi');
    await model.withConfig({ reasoningEffort: 'max' }).invoke('hi');
    expect(bodies.map((body) => body.reasoning_effort)).toEqual(['high', 'minimal', 'max']);
    expect(bodies[1]).not.toHaveProperty('reasoningEffort');
  });

  it('a value that is not a string is refused before sending, naming the field', async () => {
    const { connection, emulator } = await recordingGateway();
    const model = new GatewayChatModel('community/reasoner', {
      ...connection,
      reasoningEffort: 3 as unknown as string,
    });
    const error = await caught(model.invoke('hi'));
    expect(isGatewayError(error) && error.code).toBe('invalid_request_error');
    expect(isGatewayError(error) && error.field).toBe('reasoning_effort');
    const fromCall = await caught(
      new GatewayChatModel('community/reasoner', connection).invoke('hi', {
        reasoningEffort: { effort: 'low' } as unknown as string,
      }),
    );
    expect(fromCall.message).toBe(
      'reasoning_effort: must be a string such as "low", "medium" or "high", got an object',
    );
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

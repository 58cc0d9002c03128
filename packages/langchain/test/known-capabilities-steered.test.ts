// A model's `capabilities` reach core's gate on every call (LangChain's model always passes them):
// a one-model call with a stall timeout is gated by them as the same call without one.

import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { weatherTool } from './helpers';

describe('a model with capabilities and a stall timeout', () => {
  it('sends the call its capabilities allow, as the model without the timeout does', async () => {
    const gateway = await emulate();
    // community/plain is listed without tools: the model says it has them.
    const fields = { ...gateway.connection, capabilities: ['chat', 'tools'] };
    const endOf = async (model: GatewayChatModel) => {
      const before = gateway.emulator.counters.requests.chat;
      const error = await caught(() => model.bindTools([weatherTool]).invoke('hi'), isGatewayError);
      return { code: error.code, sent: gateway.emulator.counters.requests.chat - before };
    };
    const plain = await endOf(new GatewayChatModel('community/plain', fields));
    expect(plain.sent).toBe(1);
    const stallTimed = new GatewayChatModel('community/plain', {
      ...fields,
      firstChunkTimeoutMs: 5000,
    });
    expect(await endOf(stallTimed)).toEqual(plain);
  });
});

// docs/gateway-protocol.md §4.1: `maxTokens` and `seed` are integers on the wire (gateway API
// §2.5). LangChain's fields are only mapped: core's check refuses another value before sending.
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { emulatedModel } from './helpers';

describe('a sampling field of the wrong type through LangChain', () => {
  it('invoke with maxTokens 1.5: invalid_request_error naming max_tokens, nothing sent', async () => {
    const { emulator, model } = await emulatedModel({ maxRetries: 0, maxTokens: 1.5 });
    const error = await caught(model.invoke('hi'));
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'max_tokens' });
    expect((error as Error).message).toContain('must be an integer, got number 1.5');
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
  });
});

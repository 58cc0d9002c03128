import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../client/client';
import { isGatewayError } from '../errors/errors';

const audio = new Uint8Array([...new TextEncoder().encode('RIFF....WAVEfmt hello')]);

describe("transcribe's language", () => {
  it('a blank one is refused before the network, naming the field, the value and the rule', async () => {
    const { emulator, connection } = await emulate();
    const client = createGatewayClient(connection);
    const error = await caught(client.transcribe({ audio, language: '  ' }), isGatewayError);
    expect(error.code).toBe('invalid_request_error');
    expect(error.field).toBe('language');
    expect(error.message).toBe('language: is "  "; must be a non-blank language code');
    expect(emulator.counters.requests.transcriptions).toBe(0);
  });
});

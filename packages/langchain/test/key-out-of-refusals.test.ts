// The API key pasted by mistake as an option's name inside a group (`hedge: { [key]: 1 }`) is
// never quoted in the refusal, at the model's creation or at a call: core's `keyKeptOut` around
// each reading of the user's options (the key given, else the environment's).
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { connection } = emulated;
const key = connection.apiKey;

/** Every text of the refusal a user or a log may see. */
const shown = (error: Error & { field?: string }) =>
  [error.message, error.field ?? '', error.stack ?? ''].join('\n');

describe('the key as an option name, inside a group', () => {
  it.each([
    ['hedge', { hedge: { [key]: 1 } }],
    ['structuredOutput', { structuredOutput: { [key]: ['tools'] } }],
  ])('new GatewayChatModel with it in %s: refused, the key redacted', async (_, fields) => {
    const error = await caught(
      () => new GatewayChatModel({ model: 'community/general', ...connection, ...fields } as never),
      isGatewayError,
    );
    expect(error.code).toBe('configuration_error');
    expect(shown(error)).not.toContain(key);
    expect(error.message).toContain('[redacted]');
  });

  it('invoke with it in the call’s hedge: refused before any request, the key redacted', async () => {
    const model = new GatewayChatModel({ model: 'community/general', ...connection });
    const error = await caught(
      () => model.invoke('hi', { hedge: { [key]: 1 } } as never),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_request_error');
    expect(shown(error)).not.toContain(key);
    expect(emulated.emulator.counters.requests.chat ?? 0).toBe(0);
  });
});

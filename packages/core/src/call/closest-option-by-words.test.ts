// docs/gateway-protocol.md §3.1 (an unknown option is refused naming the closest known one): the
// name with the key's words (`maxRetry` → `maxRetries`) is closer than one that merely holds the
// key's letters (`maxRetryAfterMs`).
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../client/client';

const CONNECTION = { baseURL: 'https://gw.test/v1', apiKey: 'sk-test-0000' };

describe('the closest option named for an unknown key', () => {
  it.each([
    ['maxRetry', 'maxRetries'],
    ['maxRetires', 'maxRetries'],
    ['maxConcurrencey', 'maxConcurrency'],
    ['timeoutMsec', 'timeoutMs'],
  ])('createGatewayClient({ %s }) names `%s`', (key, meant) => {
    expect(() => createGatewayClient({ ...CONNECTION, [key]: 1 } as never)).toThrow(
      expect.objectContaining({
        code: 'configuration_error',
        message: `unknown option \`${key}\` in createGatewayClient — did you mean \`${meant}\`?`,
      }),
    );
  });
});

/**
 * The API key pasted by mistake as an option's name inside a group (`hedge: { [key]: 1 }`) is never
 * quoted in `createGatewayMcpServer`'s refusal: core's `keyKeptOut` around the reading of its
 * options (the key of `clientOptions`, else `INFERGATE_API_KEY`).
 */
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayMcpServer } from '../src/index';

const key = 'ig-live-0123456789abcdef';

describe('createGatewayMcpServer with the key as an option name', () => {
  it.each([
    ['hedge', { hedge: { [key]: 1 } }],
    ['circuitBreaker', { circuitBreaker: { [key]: 1 } }],
  ])('in %s: configuration_error, the key redacted', async (_, options) => {
    const error = await caught(
      () =>
        createGatewayMcpServer({
          clientOptions: { baseURL: 'http://127.0.0.1:9/v1', apiKey: key },
          ...options,
        } as never),
      isGatewayError,
    );
    expect(error.code).toBe('configuration_error');
    expect([error.message, error.field ?? '', error.stack ?? ''].join('\n')).not.toContain(key);
  });
});

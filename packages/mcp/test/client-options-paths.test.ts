/**
 * A refusal of one of `clientOptions` (checked by core when the server makes its client) names the
 * option by its path from the server's options, as every other refusal of them does: its `field`,
 * and its message where the message starts with the option's name.
 */
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayMcpServer, type GatewayMcpServerOptions } from '../src/index';

const connection = { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'ig-test-key-0000' };

/** The refusal `clientOptions` get when the server is made. */
const refusal = (clientOptions: Record<string, unknown>) =>
  caught(
    () =>
      createGatewayMcpServer({
        catalogRefreshMs: 0,
        clientOptions: { ...connection, ...clientOptions },
      } as GatewayMcpServerOptions).close(),
    isGatewayError,
  );

describe("clientOptions' refusals name the path from the server's options", () => {
  it.each([
    [
      { hedge: { after: 1 } },
      'clientOptions.hedge.after',
      'unknown option `after` in hedge — did you mean `afterMs`?',
    ],
    [
      { maxConcurency: 2 },
      'clientOptions.maxConcurency',
      'unknown option `maxConcurency` in createGatewayClient — did you mean `maxConcurrency`?',
    ],
    [
      { maxRetries: -1 },
      'clientOptions.maxRetries',
      'clientOptions.maxRetries (client option) must be an integer ≥ 0, got -1',
    ],
    [
      { hedge: { afterMs: 0 } },
      'clientOptions.hedge.afterMs',
      "clientOptions.hedge.afterMs (client option) must be a finite number of ms > 0 or 'auto', got 0",
    ],
  ])('%o: field %s', async (given, field, message) => {
    const error = await refusal(given);
    expect(error).toMatchObject({ code: 'configuration_error', field, message });
  });
});

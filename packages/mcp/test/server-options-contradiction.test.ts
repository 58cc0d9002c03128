/**
 * A server's `hedge` that its own stall timeout or its client's deadline leaves unsent is refused
 * when the server is made (`configuration_error` naming the server option), as core's
 * `createGatewayClient` refuses the same values: not at each `ask_model`, where it would read as an
 * argument the model should fix.
 */
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayMcpServer } from '../src/index';

const OFFLINE = { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-offline-0000' };

describe('createGatewayMcpServer with a hedge that can never be sent', () => {
  it.each([
    [
      { hedge: { afterMs: 500 }, firstChunkTimeoutMs: 100, clientOptions: OFFLINE },
      'hedge.afterMs (server option) (500) is not less than firstChunkTimeoutMs (100): the stall moves the call on before the hedge is due',
    ],
    [
      { hedge: { afterMs: 5000 }, clientOptions: { ...OFFLINE, timeoutMs: 1000 } },
      'hedge.afterMs (server option) (5000) is not less than timeoutMs (1000): the hedge would never be sent',
    ],
    [
      { hedge: { afterMs: 400_000 }, clientOptions: OFFLINE },
      'hedge.afterMs (server option) (400000) is not less than timeoutMs (300000): the hedge would never be sent',
    ],
  ])('%o is refused at creation', (options, message) => {
    expect(() => createGatewayMcpServer({ catalogRefreshMs: 0, ...options })).toThrow(
      expect.objectContaining({ code: 'configuration_error', field: 'hedge.afterMs', message }),
    );
  });

  it('a hedge due before the stall timeout and the deadline is taken', async () => {
    const gateway = await emulate();
    const server = createGatewayMcpServer({
      catalogRefreshMs: 0,
      hedge: { afterMs: 100 },
      firstChunkTimeoutMs: 500,
      clientOptions: { ...gateway.connection, timeoutMs: 1000 },
    });
    await server.refreshCatalog();
    await server.close();
    await gateway.close();
  });
});

/**
 * A server's `hedge` that its client's stall timeout (`clientOptions.firstChunkTimeoutMs`, what
 * ask_model's calls run with when the server gives none) leaves unsent is refused when the server
 * is made, not at every ask_model as an argument the model should fix.
 */
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayMcpServer } from '../src/index';

const OFFLINE = { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-offline-0000' };

describe("createGatewayMcpServer with a hedge its client's stall timeout leaves unsent", () => {
  it('is refused at creation', () => {
    expect(() =>
      createGatewayMcpServer({
        catalogRefreshMs: 0,
        hedge: { afterMs: 500 },
        clientOptions: { ...OFFLINE, firstChunkTimeoutMs: 100 },
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'configuration_error',
        field: 'hedge.afterMs',
        message:
          'hedge.afterMs (server option) (500) is not less than firstChunkTimeoutMs (100): the stall moves the call on before the hedge is due',
      }),
    );
  });

  it("the server's own stall timeout is the one its calls run with", async () => {
    const gateway = await emulate();
    const server = createGatewayMcpServer({
      catalogRefreshMs: 0,
      hedge: { afterMs: 500 },
      firstChunkTimeoutMs: 1000,
      clientOptions: { ...gateway.connection, firstChunkTimeoutMs: 100 },
    });
    await server.close();
    await gateway.close();
  });
});

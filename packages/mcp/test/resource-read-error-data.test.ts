/**
 * A failed read of a catalog resource tells what `list_models` tells of the same failure: the
 * JSON-RPC error's `data` holds the gateway's code, status and Retry-After, so a client can wait
 * and read again. Through the MCP SDK's Client against the emulator.
 */
import { caught } from '@infergate/emulator/testing';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { harness, client } = connectedHarnessOfFile();

describe('a catalog resource read that fails', () => {
  it.each(['infergate://models', 'infergate://services'])(
    '%s: the error carries code, status and retry_after_ms',
    async (uri) => {
      const endpoint = uri.endsWith('models') ? 'models' : 'capabilities';
      harness().gateway.emulator.injectFault({ fault: 'rate_limit', endpoint, retryAfter: 20 });
      const error = await caught(client().readResource({ uri }));
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InternalError);
      expect((error as McpError).data).toMatchObject({
        code: 'client_concurrency_exceeded',
        status: 429,
        retry_after_ms: 20_000,
        what_to_do: 'The gateway is busy: wait 20 s, then try again.',
      });
      expect((error as McpError).message).toBe(
        'MCP error -32603: Too many requests at once for this key',
      );
    },
  );
});

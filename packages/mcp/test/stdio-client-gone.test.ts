/**
 * A stdio client that closes stdin while its tool call runs has gone: `serveStdio` (the library,
 * not only the CLI that closes everything after) cancels that call as `notifications/cancelled`
 * would, so the gateway request is aborted and the key's slot freed, not left running for nobody.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveStdio } from '../src/index';
import { harnessOfFile, RAW_INITIALIZE, untilChatsHeld } from './harness';

const harness = harnessOfFile();

const line = (message: object) => `${JSON.stringify(message)}\n`;

describe('a stdio client that closes stdin while its tool call runs', () => {
  it('the gateway request is aborted, its slot freed, and `closed` resolves', async () => {
    harness().gateway.reset();
    const release = harness().gateway.hold('chat');
    try {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const answers: string[] = [];
      stdout.on('data', (chunk: Buffer) => answers.push(chunk.toString('utf8')));
      const stdio = await serveStdio(harness().mcp, { stdin, stdout });
      stdin.write(`${RAW_INITIALIZE}\n`);
      stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      stdin.write(
        line({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: {
            name: 'ask_model',
            arguments: { model: 'community/plain', prompt: 'nobody waits for this' },
          },
        }),
      );
      await untilChatsHeld(harness, 1);
      stdin.end();
      await stdio.closed;
      // Still held by the emulator: only an abort from the server frees it.
      await harness().gateway.untilIdle();
      await harness().mcp.client.budget.whenIdle();
      expect(harness().mcp.client.budget.active).toBe(0);
      // Nobody reads an answer to call 2 any more.
      expect(answers.join('')).not.toContain('"id":2');
    } finally {
      release();
    }
  });
});

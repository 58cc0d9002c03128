/**
 * A tool call's progress ends with it (MCP: progress stops once the operation completes): a
 * gateway call of the tool that ends after the tool's result — `similarity`'s query, answered after
 * its texts failed — reports nothing more.
 */
import type { GatewayEvent } from '@infergate/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, wire } from './harness';

let harness: Harness;
let client: Client;
/** Resolves with the next `done` event of an embeddings call that succeeded. */
let nextAnsweredEmbeddings: (() => void) | undefined;
beforeAll(async () => {
  harness = await startHarness({
    server: {
      clientOptions: {
        onEvent: (event: GatewayEvent) => {
          if (event.type === 'done' && event.operation === 'embeddings' && event.ok) {
            nextAnsweredEmbeddings?.();
          }
        },
      },
    },
  });
  client = await harness.connect();
});
afterAll(() => harness.close());

interface WireMessage {
  id?: number | string;
  method?: string;
  params?: { name?: string; progressToken?: number | string; message?: string };
}

describe('progress', () => {
  it('stops with the tool call: a gateway call answered after the result is not reported', async () => {
    const { emulator } = harness.gateway;
    // The first embeddings request fails at once; the other is held until released.
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'embeddings', times: 1 });
    const release = emulator.holdAnswers('embeddings');
    wire.length = 0;
    const steps: string[] = [];
    const result = await client.callTool(
      {
        name: 'similarity',
        arguments: { query: 'cats', texts: ['dogs', 'cats purr'], engine: 'multilingual-e5-base' },
      },
      undefined,
      { onprogress: (progress) => steps.push(progress.message ?? '') },
    );
    expect(result.isError).toBe(true);
    // The held call is answered now, after the result: core tells its `done` then.
    const answered = new Promise<void>((resolve) => {
      nextAnsweredEmbeddings = resolve;
    });
    release();
    await answered;
    // A round trip after it: whatever the server sent before its answer has been received.
    await client.ping();

    const messages = wire.map((line) => JSON.parse(line) as WireMessage);
    const call = messages.find((m) => m.method === 'tools/call' && m.params?.name === 'similarity');
    const token = call!.id!;
    const resultAt = messages.findIndex((m) => m.id === token && m.method === undefined);
    const progressAt = messages.flatMap((m, index) =>
      m.method === 'notifications/progress' && m.params?.progressToken === token ? [index] : [],
    );
    expect(progressAt.length).toBeGreaterThan(0);
    expect(progressAt.filter((index) => index > resultAt)).toEqual([]);
    expect(steps).not.toContain('embeddings: answered');
  });
});

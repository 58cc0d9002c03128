// Usage in every stream (docs/gateway-protocol.md §5.6): streamed requests ask for it, and the
// emulator (like vLLM or llama.cpp) sends it only when asked.
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { recordingGateway } from './helpers';

const USAGE = { input_tokens: 1, output_tokens: 2, total_tokens: 3 };

async function streamed(model: GatewayChatModel, options: Record<string, unknown> = {}) {
  const chunks: AIMessageChunk[] = [];
  for await (const chunk of await model.stream('hi', options)) chunks.push(chunk);
  return chunks;
}

describe('usage in every stream', () => {
  it('.stream(): stream_options asks for usage, and the last chunk carries usage_metadata', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/streamer', connection);
    const chunks = await streamed(model);
    expect(chunks.at(-1)?.usage_metadata).toMatchObject(USAGE);
    expect(chunks.filter((chunk) => chunk.usage_metadata)).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('invoke of a streaming: true model has usage_metadata', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/streamer', { ...connection, streaming: true });
    expect((await model.invoke('hi')).usage_metadata).toMatchObject(USAGE);
    expect(model.invocationParams()).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('streamUsage: false sends no stream_options (the stream then has no usage)', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/streamer', {
      ...connection,
      streamUsage: false,
    });
    const chunks = await streamed(model);
    expect(chunks.reduce((a, b) => concat(a, b)).content).toBe('Echo: hi');
    expect(chunks.some((chunk) => chunk.usage_metadata)).toBe(false);
    expect(bodies[0]).not.toHaveProperty('stream_options');
    expect(
      new GatewayChatModel('community/streamer', {
        ...connection,
        streaming: true,
        streamUsage: false,
      }).invocationParams(),
    ).not.toHaveProperty('stream_options');
  });

  it("a call's streamUsage overrides the model's, both ways, and is never a request field", async () => {
    const optedOut = await recordingGateway();
    const quiet = new GatewayChatModel('community/streamer', {
      ...optedOut.connection,
      streamUsage: false,
    });
    expect((await streamed(quiet, { streamUsage: true })).at(-1)?.usage_metadata).toMatchObject(
      USAGE,
    );
    expect(optedOut.bodies[0]).toMatchObject({ stream_options: { include_usage: true } });

    const byDefault = await recordingGateway();
    const model = new GatewayChatModel('community/tools', byDefault.connection);
    const bound = model.bindTools([], { streamUsage: false });
    for await (const _chunk of await bound.stream('hi')) {
      // read to the end
    }
    expect(byDefault.bodies[0]).not.toHaveProperty('stream_options');
    expect(byDefault.bodies[0]).not.toHaveProperty('streamUsage');
  });

  it("a call's stream_options is sent as given", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/streamer', connection);
    const chunks = await streamed(model, { stream_options: { include_usage: false } });
    expect(bodies[0]?.stream_options).toEqual({ include_usage: false });
    expect(chunks.some((chunk) => chunk.usage_metadata)).toBe(false);
  });

  it('refuses a streamUsage field that is not a boolean', async () => {
    const { connection } = await recordingGateway();
    expect(
      () =>
        new GatewayChatModel('community/streamer', {
          ...connection,
          streamUsage: 'yes' as unknown as boolean,
        }),
    ).toThrow(
      expect.objectContaining({
        code: 'configuration_error',
        message: 'streamUsage (model setting) must be a boolean, got a string',
      }),
    );
  });
});

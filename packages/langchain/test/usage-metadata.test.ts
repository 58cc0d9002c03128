// usage_metadata as core reads the gateway's `usage` (docs/gateway-protocol.md §4.3): the output
// counts the reasoning wherever the server counts it, and no count is negative.

import type { ScenarioInput } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { intercepting, recordingGateway } from './helpers';

const XAI: ScenarioInput = {
  models: { 'dialect/xai': { capabilities: ['chat', 'streaming'], dialect: 'xai' } },
};

describe('usage_metadata', () => {
  it('xai dialect (reasoning outside completion_tokens): output_tokens count the reasoning', async () => {
    const { connection } = await recordingGateway(XAI);
    const model = new GatewayChatModel('dialect/xai', connection);
    const invoked = await model.invoke('hello there');
    let merged: AIMessageChunk | undefined;
    for await (const chunk of await model.stream('hello there')) {
      merged = merged ? concat(merged, chunk) : chunk;
    }
    // prompt 2 (1 cached), completion 3 ('Echo: hello there'), reasoning 10, total 15.
    for (const usage of [invoked.usage_metadata, merged?.usage_metadata]) {
      expect(usage).toMatchObject({ input_tokens: 2, output_tokens: 13, total_tokens: 15 });
      expect(usage?.output_token_details).toEqual({ reasoning: 10 });
      expect(usage?.input_token_details).toEqual({ cache_read: 1 });
    }
  });

  it('a negative count reads as 0', async () => {
    const gateway = await emulate();
    const connection = intercepting(gateway, async (request, emulator) => {
      if (!request.url.endsWith('/chat/completions')) return undefined;
      const answer = (await (await emulator.fetch(request)).json()) as Record<string, unknown>;
      const usage = { prompt_tokens: 4, completion_tokens: -2, total_tokens: 2 };
      return Response.json({ ...answer, usage });
    });
    const model = new GatewayChatModel('community/general', connection);
    expect((await model.invoke('hi')).usage_metadata).toEqual({
      input_tokens: 4,
      output_tokens: 0,
      total_tokens: 2,
    });
  });
});

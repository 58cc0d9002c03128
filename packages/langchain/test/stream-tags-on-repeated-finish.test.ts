import { emulate, repeatedFinishSse } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

// A server that names system_fingerprint / service_tier only on its last chunk, the one that repeats
// choice 0's finish_reason with the usage (OpenRouter's shape): core hands out one finish, and the
// tags with the usage event; the stream's joined chunks still carry them, as ChatOpenAI's would.
const MODEL = 'community/general';
const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
const body = repeatedFinishSse(MODEL, {
  usage,
  system_fingerprint: 'fp_late',
  service_tier: 'flex',
});

describe('tags sent only on a repeated finish chunk', () => {
  it("stream(): the joined chunks' response_metadata has them, and the usage", async () => {
    const gateway = await emulate();
    const connection = intercepting(gateway, async (request) =>
      request.method === 'POST'
        ? new Response(body, { headers: { 'content-type': 'text/event-stream' } })
        : undefined,
    );
    const model = new GatewayChatModel(MODEL, connection);
    let whole: AIMessageChunk | undefined;
    for await (const part of await model.stream('hi')) whole = whole ? concat(whole, part) : part;
    expect(whole?.response_metadata).toMatchObject({
      system_fingerprint: 'fp_late',
      service_tier: 'flex',
      finish_reason: 'stop',
    });
    expect(whole?.usage_metadata).toMatchObject({ input_tokens: 3, output_tokens: 2 });
  });
});

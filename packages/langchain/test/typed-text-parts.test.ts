// A content part of a type core does not know, with a string `text` (`output_text`: servers that
// copy OpenAI's Responses API): core reads it as text (docs/gateway-protocol.md §4.3, §5.4), so
// `.invoke()` and `.stream()` give it, not an empty answer.

import { emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';
const CONTENT = [{ type: 'output_text', text: 'Hello' }];

function serverAnswer(streamed: boolean): Response {
  const headers = { 'x-service-model': MODEL };
  if (!streamed) {
    const message = { role: 'assistant', content: CONTENT };
    const choices = [{ index: 0, message, finish_reason: 'stop' }];
    return Response.json({ id: 'w', object: 'chat.completion', choices }, { headers });
  }
  const data = [
    { id: 's', choices: [{ index: 0, delta: { content: CONTENT }, finish_reason: null }] },
    { id: 's', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ];
  const body = [...data.map((d) => JSON.stringify(d)), '[DONE]'].map((d) => `data: ${d}\n\n`);
  return new Response(body.join(''), {
    headers: { ...headers, 'content-type': 'text/event-stream' },
  });
}

describe('an output_text content part', () => {
  it('.invoke() and .stream() give its text', async () => {
    const gateway = await emulate();
    const connection = intercepting(gateway, async (request) =>
      request.url.endsWith('/chat/completions')
        ? serverAnswer((await request.json()).stream === true)
        : undefined,
    );
    const model = await GatewayChatModel.create(MODEL, connection);
    expect((await model.invoke('hi')).content).toBe('Hello');
    let joined: AIMessageChunk | undefined;
    for await (const chunk of await model.stream('hi'))
      joined = joined ? concat(joined, chunk) : chunk;
    expect(joined?.content).toBe('Hello');
  });
});

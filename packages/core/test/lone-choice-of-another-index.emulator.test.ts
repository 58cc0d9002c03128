import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';

// docs/gateway-protocol.md §4.3: a request of one choice answered with one choice of `index: 1`
// is that answer, streamed as whole (a whole answer's lone choice is the answer whatever its
// index; the AI SDK's and openai-node's readers return its text too).

const MODEL = 'community/general';
const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'hi' }] };
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', model: MODEL, choices: [{ index: 1, delta, finish_reason: finish }] })}\n\n`;

async function client() {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, (body) =>
    body.stream === true
      ? new Response(
          `${chunk({ role: 'assistant', content: 'Hel' })}${chunk({ content: 'lo' })}${chunk({}, 'stop')}data: [DONE]\n\n`,
          { headers: { 'content-type': 'text/event-stream' } },
        )
      : Response.json({
          id: 'c1',
          object: 'chat.completion',
          model: MODEL,
          choices: [
            { index: 1, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' },
          ],
        }),
  );
  return createGatewayClient({ ...connection, circuitBreaker: false, fetch });
}

describe('one choice asked, its lone choice of index 1', () => {
  it('streamed: the answer, as the same answer whole', async () => {
    const gateway = await client();
    const { answer } = await gateway.chat(ask);
    const stream = await gateway.chatStream({ ...ask, stream: true });
    const streamed = await stream.result();
    expect(streamed).toMatchObject({ text: answer.text, finishReason: answer.finishReason });
    expect(streamed.text).toBe('Hello');
  });

  it('asked for two: the stream without choice 0 is still unreadable', async () => {
    const gateway = await client();
    const stream = await gateway.chatStream({ ...ask, n: 2, stream: true });
    await expect(stream.result()).rejects.toMatchObject({ code: 'provider_protocol_error' });
  });
});

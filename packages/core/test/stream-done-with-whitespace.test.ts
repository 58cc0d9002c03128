import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { hi } from './helpers';

// docs/gateway-protocol.md §5.2 (the end of a stream), read liberally: `[DONE]` with whitespace
// around it (`data: [DONE] `, `data:  [DONE]\t`) ends the stream as `[DONE]` does, where it failed
// as an event that is not JSON (provider_protocol_error). (The emulator serves the catalog; a stub
// answers the chat with the bytes, its body left open after them: only the `[DONE]` ends it.)
const MODEL = 'community/general';
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

async function answered(done: string) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (!String(input).endsWith('/chat/completions')) return gatewayFetch(input, init);
    const text = `${chunk({ role: 'assistant', content: 'Hi' })}${chunk({}, 'stop')}${done}`;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode(text)),
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  const client = createGatewayClient({ ...gateway.connection, fetch });
  const stream = await client.chatStream(hi(MODEL));
  const answer = await stream.result();
  await gateway.close();
  return answer;
}

describe('[DONE] with whitespace around it', () => {
  it.each(['data: [DONE] \n\n', 'data:  [DONE]\t\n\n', 'data: [DONE]\r\n\r\n'])(
    '%j ends the stream',
    async (done) => {
      expect(await answered(done)).toMatchObject({ text: 'Hi', finishReason: 'stop' });
    },
  );
});

import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, isGatewayError } from '../src/index';
import { PLACE_SCHEMA } from './helpers';

// A structured answer cut at the length limit: its error names the limit, not only "not JSON".
// (The emulator serves the catalog; a stub answers the chat: the emulator cuts only text answers
// at `max_tokens`.)
const CUT = '{"city":"Os';

async function clientAnswering(stream: boolean) {
  const body = stream
    ? [
        `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":${JSON.stringify(CUT)}}}]}`,
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}',
        'data: [DONE]',
        '',
      ].join('\n\n')
    : JSON.stringify({
        choices: [
          { index: 0, message: { role: 'assistant', content: CUT }, finish_reason: 'length' },
        ],
      });
  const type = stream ? 'text/event-stream' : 'application/json';
  const gateway = await emulate({
    scenario: {
      models: {
        'community/so-native': {
          owned_by: 'service-community',
          online: true,
          capabilities: ['chat', 'streaming', 'json_schema'],
        },
      },
    },
  });
  const { fetch: gatewayFetch } = gateway.connection;
  return createGatewayClient({
    ...gateway.connection,
    fetch: async (input, init) =>
      String(input).endsWith('/chat/completions')
        ? new Response(body, { headers: { 'content-type': type } })
        : gatewayFetch(input, init),
  });
}

const request = {
  model: 'community/so-native',
  max_tokens: 4,
  messages: [{ role: 'user' as const, content: 'Where is "Oslo"?' }],
  response_format: {
    type: 'json_schema' as const,
    json_schema: { name: 'place', schema: PLACE_SCHEMA },
  },
};

describe('structured output cut at max_tokens', () => {
  it('a whole answer: invalid_structured_output names the length limit', async () => {
    const error = await caught(
      async () => (await clientAnswering(false)).chat(request),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(error.message).toContain('cut at the length limit (finish_reason "length")');
  });

  it('a stream: its end check names the length limit too', async () => {
    const error = await caught(async () => {
      const stream = await (await clientAnswering(true)).chatStream(request);
      return stream.result();
    }, isGatewayError);
    expect(error.code).toBe('invalid_structured_output');
    expect(error.message).toContain('cut at the length limit (finish_reason "length")');
  });
});

import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { askingForAPlace } from './structured-place-asks';

// docs/gateway-protocol.md §4.3 and §4.8: a structured stream held for its check (a model left to
// fall back to) reads a lone choice of `index: 1` as the answer, as the plain stream does; it
// failed the hop ("without choice 0") and walked on, a second paid request for a valid answer.

const chunk = (model: string, delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', model, choices: [{ index: 1, delta, finish_reason: finish }] })}\n\n`;

describe('a held structured stream whose lone choice has index 1', () => {
  it('is the answer, checked, with no walk to the next model', async () => {
    const { connection } = await emulate();
    const sent: string[] = [];
    const fetch = chatsAnsweredBy(connection, (body) => {
      sent.push(body.model);
      const { model } = body;
      return new Response(
        `${chunk(model, { role: 'assistant', content: '{"city":' })}${chunk(model, { content: '"Oslo"}' })}${chunk(model, {}, 'stop')}data: [DONE]\n\n`,
        { headers: { 'content-type': 'text/event-stream' } },
      );
    });
    const client = createGatewayClient({ ...connection, circuitBreaker: false, fetch });
    const stream = await client.chatStream(askingForAPlace('community/json-schema'), {
      fallbackModels: ['community/json-object'],
    });
    const result = await stream.result();
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(sent).toEqual(['community/json-schema']);
  });
});

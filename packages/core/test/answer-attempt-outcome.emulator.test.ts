import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type GatewayEvent, isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

/**
 * The attempt whose 2xx answer was handed over reports the answer's outcome in its `response`
 * event: a body that is not JSON, a stream that fails before its content, is a failed attempt —
 * with or without `fallbackModels` — and its events keep their order (response, released, done).
 */
async function recorded() {
  const events: GatewayEvent[] = [];
  const gateway = await emulate();
  const client = clientOn(gateway, { maxRetries: 0, onEvent: (event) => events.push(event) });
  await client.models();
  events.length = 0;
  return { client, events, emulator: gateway.emulator };
}

const chatTypes = (events: GatewayEvent[]) =>
  events.filter((event) => event.operation === 'chat').map((event) => event.type);
const firstResponse = (events: GatewayEvent[]) =>
  events.find((event) => event.type === 'response' && event.attempt === 1);

describe('an answer handed over: its attempt reports its outcome', () => {
  it.each([
    ['without fallbackModels', {}],
    ['with fallbackModels', { fallbackModels: ['community/plain'] }],
  ])('a 200 whose body is not JSON is a failed attempt (%s)', async (_, options) => {
    const { client, events } = await recorded();
    const headers = { 'x-emulator-fault': 'truncated_json' };
    const error = await caught(() => client.chat(hi(), { ...options, headers }), isGatewayError);
    expect(error.code).toBe('invalid_response');
    expect(firstResponse(events)).toMatchObject({
      ok: false,
      status: 200,
      code: 'invalid_response',
    });
    expect(chatTypes(events).slice(-3)).toEqual(['response', 'released', 'done']);
  });

  it.each([
    ['without fallbackModels', {}],
    ['with fallbackModels', { fallbackModels: ['community/tools'] }],
  ])(
    'a stream whose error event comes before its content is a failed attempt (%s)',
    async (_, options) => {
      const { client, events } = await recorded();
      const headers = { 'x-emulator-fault': 'stream_error; afterChunks=1' };
      const read = async () => {
        const stream = await client.chatStream(hi(), { ...options, headers });
        await stream.result();
      };
      const error = await caught(read, isGatewayError);
      expect(firstResponse(events)).toMatchObject({ ok: false, status: 200, code: error.code });
      expect(chatTypes(events).at(-1)).toBe('done');
    },
  );

  it('a stream that fails after its content: its attempt answered (the stream failed)', async () => {
    const { client, events } = await recorded();
    const headers = { 'x-emulator-fault': 'stream_error; afterChunks=3' };
    const stream = await client.chatStream(hi(), { headers });
    await caught(() => stream.result(), isGatewayError);
    expect(firstResponse(events)).toMatchObject({ ok: true, status: 200 });
    expect(chatTypes(events).slice(-3)).toEqual(['response', 'released', 'done']);
  });
});

// docs/gateway-protocol.md §4.8 item 3: a number at the schema's root, cut at the length limit,
// still parses (`70` of `7000`): the answer is refused as cut (`reason: 'cut'`), and the walk
// moves on to the next model, whole and streamed.
import {
  caught,
  chatsAnsweredBy,
  emulate,
  oneMessageAnswer,
  type ScriptedChatBody,
} from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/errors';
import { createGatewayClient } from '../index';

const gateway = await emulate({ hooks: { afterEach, afterAll } });
const schema = { type: 'number' };
const ask = {
  model: 'community/json-schema',
  messages: [{ role: 'user' as const, content: 'How many metres?' }],
  response_format: { type: 'json_schema' as const, json_schema: { name: 'metres', schema } },
};

/** Every model answers `content` finishing `finish` (whole or streamed, as asked). */
function answering(content: string, finish: string, seen: string[]) {
  return chatsAnsweredBy(gateway.connection, (body: ScriptedChatBody) => {
    seen.push(body.model);
    const sent = body.model === 'community/general' ? { content: '7000' } : { content };
    const ends = body.model === 'community/general' ? 'stop' : finish;
    return oneMessageAnswer(body.model, sent, ends, body.stream === true);
  });
}

describe('a number at the root cut at the length limit', () => {
  it('fails its check as cut (chat)', async () => {
    const seen: string[] = [];
    const client = createGatewayClient({
      ...gateway.connection,
      fetch: answering('70', 'length', seen),
    });
    const error = await caught(() => client.chat(ask), isGatewayError);
    expect(error.code).toBe('invalid_structured_output');
    expect(error.invalidOutput?.reason).toBe('cut');
    expect(error.message).toContain('cut at the length limit');
  });

  it('moves on to the fallback (chat)', async () => {
    const seen: string[] = [];
    const client = createGatewayClient({
      ...gateway.connection,
      fetch: answering('70', 'length', seen),
    });
    const result = await client.chat(ask, { fallbackModels: ['community/general'] });
    expect(result.structured?.value).toBe(7000);
    expect(seen).toEqual(['community/json-schema', 'community/general']);
    expect(result.route.hops[0]).toMatchObject({
      outcome: 'failed',
      reason: 'invalid_structured_output',
    });
  });

  it('fails its check as cut (chatStream, at its end)', async () => {
    const seen: string[] = [];
    const client = createGatewayClient({
      ...gateway.connection,
      fetch: answering('70', 'length', seen),
    });
    const error = await caught(async () => {
      const stream = await client.chatStream({ ...ask, stream: true });
      for await (const _ of stream) {
        // read to the end
      }
      await stream.result();
    }, isGatewayError);
    expect(error.code).toBe('invalid_structured_output');
    expect(error.invalidOutput?.reason).toBe('cut');
  });

  it('a whole number that finished (stop) passes', async () => {
    const client = createGatewayClient({
      ...gateway.connection,
      fetch: answering('70', 'stop', []),
    });
    expect((await client.chat(ask)).structured?.value).toBe(70);
  });
});

import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { askingForAPlace as asking, clientAnswering } from './structured-place-asks';

// `invalid_structured_output` says why the answer failed (`invalidOutput.reason`, §4.8), whole and
// streamed alike: the model refused (OpenAI's `refusal`), its answer was cut at the length limit
// with no JSON, it held no JSON where its method puts it, or its JSON broke the schema. A caller
// (the MCP server's advice) reads it, not the issue's words. The emulator serves the catalog
// (`community/json-schema` by `json_schema`, `community/tools` by a forced call); a stub sends the
// chat answers the emulator does not.

type Message = Record<string, unknown>;

/** A client whose chat answers are `message` with `finish`, whole or as a stream of one delta. */
const answering = (message: Message, finish: string) =>
  clientAnswering(() => ({ message, finish }));

/** The `invalidOutput.reason` of `model`'s answer `message` (finish `finish`), whole and streamed. */
async function reasons(model: string, message: Message, finish: string) {
  const client = await answering(message, finish);
  const whole = await caught(client.chat(asking(model)), isGatewayError);
  const streamed = await caught(async () => {
    const stream = await client.chatStream(asking(model));
    for await (const _ of stream) {
      // read to its end
    }
    return stream.result();
  }, isGatewayError);
  expect(whole.code).toBe('invalid_structured_output');
  expect(streamed.code).toBe('invalid_structured_output');
  return [whole.invalidOutput?.reason, streamed.invalidOutput?.reason];
}

describe('invalid_structured_output says why the answer failed (invalidOutput.reason)', () => {
  it.each([
    ['refused', 'community/json-schema', { content: '{"city":"Oslo"}', refusal: 'No.' }, 'stop'],
    ['refused', 'community/tools', { content: null, refusal: "I can't help." }, 'stop'],
    ['cut', 'community/json-schema', { content: '{"city":"Os' }, 'length'],
    ['cut', 'community/tools', { content: 'Let me think about' }, 'length'],
    ['no_json', 'community/json-schema', { content: 'Oslo, I think.' }, 'stop'],
    ['no_json', 'community/tools', { content: 'Oslo, I think.' }, 'stop'],
    ['schema', 'community/json-schema', { content: '{"city":7}' }, 'stop'],
  ] as const)('%s: %s answering %j (%s)', async (reason, model, message, finish) => {
    expect(await reasons(model, message, finish)).toEqual([reason, reason]);
  });

  it('a cut answer whose tool was never called says it was cut, as a cut text does', async () => {
    const client = await answering({ content: 'Let me think about' }, 'length');
    const error = await caught(client.chat(asking('community/tools')), isGatewayError);
    expect(error.invalidOutput?.issues[0]?.message).toMatch(/cut at the length limit/);
  });

  it('keeps the reason in toJSON', async () => {
    const client = await answering({ content: '{}', refusal: 'No.' }, 'stop');
    const error = await caught(client.chat(asking('community/json-schema')), isGatewayError);
    expect(error.toJSON()).toMatchObject({ invalidOutput: { reason: 'refused' } });
  });
});

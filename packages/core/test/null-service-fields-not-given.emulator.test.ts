// docs/gateway-protocol.md §6, §7, §9: `null` for an optional service field (as the adapters
// hand over what is unset) means "not given", as `model` already did: accepted and left out of
// what is sent. It was refused for translation's `source_language`, transcription's `language`,
// `response_format`, `translate` and `encoding`, embeddings' `input_type` and `dimensions` (and
// embedMany's `inputType`, `dimensions`, `model`). A required field still refuses `null`.
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { caught, clientOn, totalRequests } from './helpers';

const ENGINE = 'all-minilm-l6-v2';
const audio = wavWithSpeech('nothing set');

/** A client on its own emulator that keeps each POST's body: its JSON, or its form's field names. */
async function recording() {
  const gateway = await emulate();
  const sent: Record<string, unknown>[] = [];
  const send = gateway.connection.fetch ?? fetch;
  const client = clientOn(gateway, {
    fetch: async (url, init) => {
      if (typeof init?.body === 'string') sent.push(JSON.parse(init.body));
      if (init?.body instanceof FormData) {
        sent.push(Object.fromEntries([...init.body.keys()].map((key) => [key, 'given'])));
      }
      return send(url, init);
    },
  });
  return { gateway, client, sent };
}

/** Sets `value` as `field` past the request's type (null is not in it: the adapters' nulls are). */
const withNull = <T extends object>(request: T, ...fields: string[]): T =>
  Object.assign(request, Object.fromEntries(fields.map((field) => [field, null])));

describe('null for an optional service field: not given, not sent', () => {
  it('translate: source_language and model', async () => {
    const { client, sent } = await recording();
    const request = withNull({ input: 'hi', target_language: 'uk' }, 'source_language', 'model');
    expect((await client.translate(request)).text).toBeTypeOf('string');
    expect(sent).toEqual([{ input: 'hi', target_language: 'uk' }]);
  });

  it('embed: input_type and dimensions', async () => {
    const { client, sent } = await recording();
    const request = withNull({ model: ENGINE, input: ['a'] }, 'input_type', 'dimensions');
    expect((await client.embed(request)).data).toHaveLength(1);
    expect(sent).toEqual([{ model: ENGINE, input: ['a'] }]);
  });

  it('embed: model null is as none (two engines listed: pick one)', async () => {
    const { gateway, client } = await recording();
    const unset = await caught(() => client.embed({ input: 'a' }));
    const nulled = await caught(() => client.embed(withNull({ input: 'a' }, 'model')));
    expect(nulled).toMatchObject({ code: 'invalid_request_error', field: 'model' });
    expect(nulled.message).toBe(unset.message);
    expect(gateway.emulator.counters.requests.embeddings).toBe(0);
  });

  it('embedMany: inputType, dimensions (model named)', async () => {
    const { client, sent } = await recording();
    const options = withNull({ model: ENGINE }, 'inputType', 'dimensions');
    expect(await client.embedMany(['a', 'b'], options)).toHaveLength(2);
    expect(sent).toEqual([{ model: ENGINE, input: ['a', 'b'] }]);
  });

  it('transcribe (JSON): language, response_format, translate, filename, mime_type, model', async () => {
    const { client, sent } = await recording();
    const fields = ['language', 'response_format', 'translate', 'filename', 'mime_type', 'model'];
    const request = withNull({ audio, encoding: 'json' as const }, ...fields);
    expect(await client.transcribe(request)).toMatchObject({ text: 'nothing set' });
    expect(Object.keys(sent[0]!).sort()).toEqual(['audio_base64', 'filename', 'mime_type']);
    expect(sent[0]).toMatchObject({ filename: 'audio.wav', mime_type: 'audio/wav' });
  });

  it('transcribe (multipart): the same, and encoding', async () => {
    const { client, sent } = await recording();
    const fields = ['language', 'response_format', 'translate', 'model', 'encoding'];
    expect(await client.transcribe(withNull({ audio }, ...fields))).toMatchObject({
      text: 'nothing set',
    });
    expect(sent).toEqual([{ file: 'given' }]);
  });
});

describe('a required service field still refuses null', () => {
  it.each<[string, (c: ReturnType<typeof clientOn>) => Promise<unknown>, string]>([
    [
      'translate input',
      (c) => c.translate(withNull({ target_language: 'uk', input: '' }, 'input')),
      'input',
    ],
    [
      'translate target_language',
      (c) => c.translate(withNull({ input: 'hi', target_language: '' }, 'target_language')),
      'target_language',
    ],
    ['embed input', (c) => c.embed(withNull({ model: ENGINE, input: '' }, 'input')), 'input'],
    ['transcribe audio', (c) => c.transcribe(withNull({ audio }, 'audio')), 'audio'],
  ])('%s', async (_, call, field) => {
    const { gateway, client } = await recording();
    expect(await caught(() => call(client))).toMatchObject({
      code: 'invalid_request_error',
      field,
    });
    expect(totalRequests(gateway.emulator)).toBe(0);
  });
});

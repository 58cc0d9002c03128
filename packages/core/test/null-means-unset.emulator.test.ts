// docs/gateway-protocol.md §4.1, §8, §9: `null` for an optional top-level chat field (as ai and
// LangChain's `modelKwargs` hand it over) or for OCR's / transcription's optional strings means
// "not set": accepted, and left out of what is sent (the server's default applies).
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { buildChatRequest } from '../src/chat/build-chat-request';
import type { ChatRequest } from '../src/index';
import { clientOn, hi } from './helpers';

/**
 * The optional top-level chat fields, each by its name among `buildChatRequest`'s options and by
 * its name on the wire.
 */
const NULLABLE = {
  temperature: 'temperature',
  topP: 'top_p',
  maxTokens: 'max_tokens',
  seed: 'seed',
  stop: 'stop',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
  tools: 'tools',
  toolChoice: 'tool_choice',
  responseFormat: 'response_format',
  reasoningEffort: 'reasoning_effort',
} as const;
const WIRE_NAMES = Object.values(NULLABLE);
const allNull = Object.fromEntries(WIRE_NAMES.map((name) => [name, null]));

/** A client on the emulator that keeps each body it sends (JSON, or the multipart form). */
async function recording() {
  const bodies: (Record<string, unknown> | FormData)[] = [];
  const gateway = await emulate();
  const client = clientOn(gateway, {
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') {
        const copy = request.clone();
        const multipart = copy.headers.get('content-type')?.startsWith('multipart/');
        bodies.push(multipart ? await copy.formData() : await copy.json());
      }
      return gateway.emulator.fetch(request);
    },
  });
  return { client, bodies, emulator: gateway.emulator };
}

const sentFields = (body: unknown) => Object.keys(body as Record<string, unknown>);

describe('null means "not set" in a chat request', () => {
  it('chat and chatStream accept every optional field as null and leave it out of the body', async () => {
    const { client, bodies } = await recording();
    const request = { ...hi(), ...allNull } as ChatRequest;
    expect((await client.chat(request)).answer.text).toBe('Echo: hello there');
    await (await client.chatStream(request)).result();
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      for (const name of WIRE_NAMES) expect(sentFields(body)).not.toContain(name);
    }
    expect(bodies[0]).toMatchObject({ model: 'community/general', messages: request.messages });
  });

  it('buildChatRequest: named options as null are not set (no TypeError), an extra field stays', () => {
    const built = buildChatRequest({
      ...hi(),
      ...Object.fromEntries(Object.keys(NULLABLE).map((option) => [option, null])),
      extraFields: { temperature: 0.3, seed: null, logit_bias: null },
    } as never);
    expect(built).toEqual({ ...hi(), temperature: 0.3, logit_bias: null });
  });

  it('a value of the wrong type that is not null is still refused, naming the field', async () => {
    const { client, emulator } = await recording();
    const error = await caught(client.chat({ ...hi(), seed: null, temperature: '1' } as never));
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'temperature' });
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

describe('null means "not given" in translation, OCR and transcription options', () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const audio = wavWithSpeech('unset');
  const nulls = { model: null, filename: null, mime_type: null } as never as Record<string, never>;

  it('ocr: model null is not sent', async () => {
    const { client, bodies } = await recording();
    await client.ocr({ image: PNG, model: null as never });
    expect(sentFields(bodies[0])).not.toContain('model');
  });

  it('translate: model null is not sent, as with ocr', async () => {
    const { client, bodies } = await recording();
    await client.translate({ input: 'hello', target_language: 'uk', model: null as never });
    expect(sentFields(bodies[0])).not.toContain('model');
  });

  it('transcribe (multipart): no model field, the default file name and type', async () => {
    const { client, bodies } = await recording();
    expect((await client.transcribe({ audio, ...nulls })).text).toBe('unset');
    const form = bodies[0] as FormData;
    expect(form.has('model')).toBe(false);
    const file = form.get('file') as File;
    expect([file.name, file.type]).toEqual(['audio.wav', 'audio/wav']);
  });

  it('transcribe (JSON): no model field, the default file name and type', async () => {
    const { client, bodies } = await recording();
    expect((await client.transcribe({ audio, ...nulls, encoding: 'json' })).text).toBe('unset');
    expect(sentFields(bodies[0])).not.toContain('model');
    expect(bodies[0]).toMatchObject({ filename: 'audio.wav', mime_type: 'audio/wav' });
  });
});

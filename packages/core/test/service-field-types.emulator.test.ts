// docs/gateway-protocol.md §8, §9 (gateway API §4.5, §4.6): OCR's and transcription's optional
// string fields are sent only as strings; another value is refused before sending, as
// translation's `model` is.
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../src/client/client';
import { clientOn, totalRequests } from './helpers';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const audio = wavWithSpeech('typed');

describe('service fields of the wrong type are refused, not sent', () => {
  it.each<[string, (client: GatewayClient) => Promise<unknown>, string, string]>([
    [
      'ocr model {a: 1}',
      (c) => c.ocr({ image: PNG, model: { a: 1 } as never }),
      'model',
      'an object',
    ],
    ['ocr model 3', (c) => c.ocr({ image: PNG, model: 3 as never }), 'model', 'number 3'],
    [
      'transcribe (JSON) mime_type 5',
      (c) => c.transcribe({ audio, mime_type: 5 as never, encoding: 'json' }),
      'mime_type',
      'number 5',
    ],
    ['transcribe model 5', (c) => c.transcribe({ audio, model: 5 as never }), 'model', 'number 5'],
    [
      'transcribe (JSON) filename {}',
      (c) => c.transcribe({ audio, filename: {} as never, encoding: 'json' }),
      'filename',
      'an object',
    ],
    [
      'translate model 5',
      (c) => c.translate({ input: 'hi', target_language: 'uk', model: 5 as never }),
      'model',
      'number 5',
    ],
  ])('%s', async (_, call, field, got) => {
    const gateway = await emulate();
    const error = await caught(call(clientOn(gateway)));
    expect(error).toMatchObject({ code: 'invalid_request_error', field });
    expect((error as Error).message).toBe(`${field}: must be a string, got ${got}`);
    expect(totalRequests(gateway.emulator)).toBe(0);
  });

  it('strings are sent', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    await client.ocr({ image: PNG, model: 'any' });
    const named = { model: 'any', filename: 'a.wav', mime_type: 'audio/wav' };
    expect((await client.transcribe({ audio, ...named })).text).toBe('typed');
    expect((await client.transcribe({ audio, ...named, encoding: 'json' })).text).toBe('typed');
  });
});

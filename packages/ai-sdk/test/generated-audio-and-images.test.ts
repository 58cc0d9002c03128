// Audio and images the model generated (OpenAI's `delta.audio` pieces, OpenRouter's
// `delta.images`) are streamText's `file` parts (`result.files`): an image's data URL as its bytes
// and media type, the audio's pieces joined into one file (its type read from its bytes), its id,
// transcript and expiry in `providerMetadata.infergate`; the text stays the text.
import {
  choiceZeroChunk as chunk,
  oneMessageAnswer,
  streamedAnswer,
} from '@infergate/emulator/testing';
import * as ai from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, type ChatBody, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const PNG = 'iVBORw0KGgo=';
const images = [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }];

const answering = (pieces: object[]) =>
  answeringChats((body: ChatBody) =>
    streamedAnswer(body.model, [...pieces.map((delta) => chunk(delta)), chunk({}, 'stop')]),
  );

async function streamed(pieces: object[]) {
  const fetch = answering(pieces);
  const result = ai.streamText({
    model: gateway({ fetch, circuitBreaker: false })('community/general'),
    prompt: 'hi',
    maxRetries: 0,
  });
  const files: { mediaType: string; base64: string; meta: unknown }[] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'file') {
      const { mediaType, base64 } = part.file;
      files.push({ mediaType, base64, meta: part.providerMetadata?.infergate });
    }
  }
  return { files, text: await result.text, all: (await result.files).length };
}

describe('streamText: generated audio and images are file parts', () => {
  it('an image from its data URL, the text kept', async () => {
    const { files, text, all } = await streamed([
      { role: 'assistant', content: 'Here is ' },
      { images },
      { content: 'your cat' },
    ]);
    expect(text).toBe('Here is your cat');
    expect(files).toEqual([{ mediaType: 'image/png', base64: PNG, meta: undefined }]);
    expect(all).toBe(1);
  });

  it('the audio pieces joined into one WAV file, its transcript and id alongside', async () => {
    const { files, text } = await streamed([
      { role: 'assistant', audio: { id: 'audio_1', transcript: 'Hello ' } },
      { audio: { data: 'UklGRiQA', transcript: 'there' } },
      { audio: { data: 'AABXQVZF', expires_at: 1900000000 } },
    ]);
    expect(text).toBe('');
    expect(files).toEqual([
      {
        mediaType: 'audio/wav',
        base64: 'UklGRiQAAABXQVZF',
        meta: { audioId: 'audio_1', transcript: 'Hello there', expiresAt: 1900000000 },
      },
    ]);
  });
});

describe('generateText: generated audio and images are its files', () => {
  it('the image, then the audio with its transcript and id alongside; the text kept', async () => {
    const audio = { id: 'audio_1', data: 'UklGRiQAAABXQVZF', transcript: 'Hello there' };
    const fetch = answeringChats((body: ChatBody) =>
      oneMessageAnswer(body.model, { content: 'Here', audio, images }, 'stop', false),
    );
    const result = await ai.generateText({
      model: gateway({ fetch, circuitBreaker: false })('community/general'),
      prompt: 'hi',
      maxRetries: 0,
    });
    expect(result.text).toBe('Here');
    expect(result.files.map((file) => [file.mediaType, file.base64])).toEqual([
      ['image/png', PNG],
      ['audio/wav', 'UklGRiQAAABXQVZF'],
    ]);
  });
});

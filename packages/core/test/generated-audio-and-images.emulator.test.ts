import {
  chatsAnsweredBy,
  choiceZeroChunk as chunk,
  emulate,
  oneMessageAnswer,
  type StreamChunk,
  streamedAnswer,
} from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';

// Audio and images a model generates (§4.3, §5.4): OpenAI's `message.audio` (streamed as
// `delta.audio` pieces whose `data` and `transcript` add up) and OpenRouter's `message.images`
// are the answer's `audio` and `images`, whole or streamed, and a stream's events carry them.
// The emulator serves the catalog; a stub sends the answers the emulator does not.

const audio = {
  id: 'audio_1',
  data: 'UklGRiQAAABXQVZF',
  transcript: 'Hello there',
  expires_at: 1900000000,
};
/** `audio` as the answer gives it, whole or its streamed pieces joined. */
const answerAudio = {
  id: 'audio_1',
  data: 'UklGRiQAAABXQVZF',
  transcript: 'Hello there',
  expiresAt: 1900000000,
};
const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
const ask = { model: 'community/general', messages: [{ role: 'user' as const, content: 'hi' }] };

async function client(answer: (stream: boolean, model: string) => Response) {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, (body) => answer(body.stream === true, body.model));
  return createGatewayClient({ ...connection, circuitBreaker: false, fetch });
}

const pieces: StreamChunk[] = [
  chunk({ role: 'assistant', audio: { id: 'audio_1', transcript: 'Hello ' } }),
  chunk({ audio: { data: 'UklGRiQA', transcript: 'there' } }),
  chunk({ content: 'Here', images: [image] }),
  chunk({ audio: { data: 'AABXQVZF', expires_at: 1900000000 } }),
  chunk({}, 'stop'),
];

describe('audio and images the model generated', () => {
  it('a whole answer has them as `audio` and `images`', async () => {
    const gateway = await client((_, model) =>
      oneMessageAnswer(model, { content: 'Here', audio, images: [image] }, 'stop', false),
    );
    const { answer } = await gateway.chat(ask);
    expect(answer.text).toBe('Here');
    expect(answer.audio).toEqual(answerAudio);
    expect(answer.images).toEqual([{ url: image.image_url.url }]);
  });

  it('a stream joins the audio pieces, whichever chunk carries each field, and gives events', async () => {
    const gateway = await client((_, model) => streamedAnswer(model, pieces));
    const stream = await gateway.chatStream({ ...ask, stream: true });
    const media: unknown[] = [];
    for await (const event of stream) {
      if (event.type === 'audio-delta' || event.type === 'image') media.push(event);
    }
    expect(media).toEqual([
      { type: 'audio-delta', choiceIndex: 0, id: 'audio_1', transcript: 'Hello ' },
      { type: 'audio-delta', choiceIndex: 0, data: 'UklGRiQA', transcript: 'there' },
      { type: 'image', url: image.image_url.url, choiceIndex: 0 },
      { type: 'audio-delta', choiceIndex: 0, data: 'AABXQVZF', expiresAt: 1900000000 },
    ]);
    const result = await stream.result();
    expect(result.audio).toEqual(answerAudio);
    expect(result.images).toEqual([{ url: image.image_url.url }]);
    expect(result.text).toBe('Here');
  });

  it('an answer without them has neither field', async () => {
    const gateway = await client((stream, model) =>
      oneMessageAnswer(model, { content: 'Plain' }, 'stop', stream),
    );
    const { answer } = await gateway.chat(ask);
    const streamed = await (await gateway.chatStream({ ...ask, stream: true })).result();
    for (const read of [answer, streamed]) {
      expect(read).not.toHaveProperty('audio');
      expect(read).not.toHaveProperty('images');
    }
  });
});

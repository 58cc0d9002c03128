// An image the model gives as a link (http/https) is no file part: ai would download it with the
// global fetch and fail the whole call when the link is expired, private or out of reach. The
// links come in `providerMetadata.infergate.images`; the text stays the answer, data-URL images
// stay files.
import { oneMessageAnswer } from '@infergate/emulator/testing';
import * as ai from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, type ChatBody, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const LINK = 'https://images.example.invalid/cat.png';
const PNG = 'iVBORw0KGgo=';
const images = [
  { type: 'image_url', image_url: { url: LINK } },
  { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
];
const fetch = answeringChats((body: ChatBody) =>
  oneMessageAnswer(body.model, { content: 'here', images }, 'stop', body.stream === true),
);
const model = () => gateway({ fetch, circuitBreaker: false })('community/general');

describe('an image given as a link', () => {
  it('generateText: the text and the data image as a file; the link in providerMetadata', async () => {
    const result = await ai.generateText({ model: model(), prompt: 'a cat', maxRetries: 0 });
    expect(result.text).toBe('here');
    expect(result.files.map((file) => [file.mediaType, file.base64])).toEqual([['image/png', PNG]]);
    expect(result.providerMetadata?.infergate?.images).toEqual([{ url: LINK }]);
  });

  it('streamText: the text and the data image as a file; the link in providerMetadata', async () => {
    const result = ai.streamText({ model: model(), prompt: 'a cat', maxRetries: 0 });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
    expect(errors).toEqual([]);
    expect(await result.text).toBe('here');
    const files = await result.files;
    expect(files.map((file) => [file.mediaType, file.base64])).toEqual([['image/png', PNG]]);
    expect((await result.providerMetadata)?.infergate?.images).toEqual([{ url: LINK }]);
  });
});

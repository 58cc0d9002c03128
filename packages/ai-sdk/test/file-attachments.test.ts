// File parts (docs/gateway-protocol.md §4.1): useChat's text attachments go out as text parts,
// and a file without a name gets one, through `generateText` against the emulator.

import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { caught } from '@infergate/emulator/testing';
import { convertToModelMessages, generateText, type ModelMessage, type UserModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulated, gateway } = await providersOnMsw();

/** generateText of `messages` on the emulator's community/general, the request body kept. */
const ask = (messages: ModelMessage[], settings: { maxRetries?: number } = {}) =>
  generateText({
    model: gateway()('community/general'),
    messages,
    include: { requestBody: true },
    ...settings,
  });

/** One user message of these parts. */
const userSays = (...content: Exclude<UserModelMessage['content'], string>): ModelMessage => ({
  role: 'user',
  content,
});

/** The content of each message the request sent. */
const sentContents = (result: { request: { body?: unknown } }) =>
  (result.request.body as { messages: { content: unknown }[] }).messages.map(
    (message) => message.content,
  );

describe('file parts', () => {
  it("sends useChat's text attachments as text parts, and names a file sent without a name", async () => {
    // What useChat sends: file parts with data URLs, through convertToModelMessages.
    const dataUrl = (mediaType: string, text: string) =>
      `data:${mediaType};base64,${Buffer.from(text).toString('base64')}`;
    const messages = await convertToModelMessages([
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'summarise' },
          {
            type: 'file',
            mediaType: 'text/plain',
            filename: 'notes.txt',
            url: dataUrl('text/plain', 'hello notes'),
          },
          { type: 'file', mediaType: 'text/csv', url: dataUrl('text/csv', 'a,b\n1,2') },
          {
            type: 'file',
            mediaType: 'application/pdf',
            url: dataUrl('application/pdf', '%PDF-1.4'),
          },
        ],
      },
    ]);
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]); // "café" in Latin-1: not UTF-8
    const sent = sentContents(
      await ask([
        ...messages,
        userSays(
          { type: 'file', data: new TextEncoder().encode('# hi'), mediaType: 'text/markdown' },
          { type: 'file', data: latin1, mediaType: 'text/plain', filename: 'old.txt' },
        ),
      ]),
    );
    expect(sent[0]).toEqual([
      { type: 'text', text: 'summarise' },
      { type: 'text', text: 'hello notes' },
      { type: 'text', text: 'a,b\n1,2' },
      {
        type: 'file',
        file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'file.pdf' },
      },
    ]);
    expect(sent[1]).toEqual([
      { type: 'text', text: '# hi' },
      { type: 'file', file: { file_data: 'data:text/plain;base64,Y2Fm6Q==', filename: 'old.txt' } },
    ]);
  });
});

describe('video without a subtype', () => {
  /** A clip's first bytes, each with the type they name. */
  const CLIPS: [Uint8Array, string][] = [
    [new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32]), 'video/mp4'],
    [new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]), 'video/webm'],
    // QuickTime (an `ftyp` box of brand `qt  `) and AVI (`RIFF` … `AVI `), as openai-compatible reads them.
    [
      new Uint8Array([0, 0, 0, 0x14, 0x66, 0x74, 0x79, 0x70, 0x71, 0x74, 0x20, 0x20]),
      'video/quicktime',
    ],
    [new TextEncoder().encode('RIFF\x24\0\0\0AVI LIST\0\0\0\0hdrlavih'), 'video/x-msvideo'],
  ];

  it('gets its type from its first bytes (MP4, WebM, QuickTime, AVI)', async () => {
    const videos = CLIPS.map(([data]) => ({ type: 'file' as const, data, mediaType: 'video/*' }));
    const [content] = sentContents(await ask([userSays(...videos)]));
    const parts = content as { video_url: { url: string } }[];
    const urls = parts.map((part) => part.video_url.url.split(',')[0]);
    expect(urls).toEqual(CLIPS.map(([, type]) => `data:${type};base64`));
  });

  it('is refused before anything is sent when its bytes name no type, saying to give one', async () => {
    const error = await caught(
      ask([userSays({ type: 'file', data: new Uint8Array(16), mediaType: 'video/*' })], {
        maxRetries: 0,
      }),
    );
    // An AI SDK error (as openai-compatible refuses it), in core's words: what to give instead.
    expect(UnsupportedFunctionalityError.isInstance(error)).toBe(true);
    expect(error.message).toContain('mediaType');
    expect(error.message).toContain('"video/mp4"');
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
  });
});

describe('an image by provider reference', () => {
  it('takes no `detail`: it belongs on `image_url` only', async () => {
    const [content] = sentContents(
      await ask([
        userSays({
          type: 'file',
          mediaType: 'image/png',
          data: { type: 'reference', reference: { infergate: 'file-abc' } },
          providerOptions: { infergate: { detail: 'high' } },
        }),
      ]),
    );
    expect(content).toEqual([{ type: 'file', file: { file_id: 'file-abc' } }]);
  });
});
